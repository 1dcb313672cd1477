import type { SqliteDatabase } from '../sqlite/sqlite-database.js';
import { JOIN_END_ENTRY } from './entry.js';

/**
 * What `tally stats` counts in one ledger, as SQL aggregates: the database counts and groups,
 * and only the groups cross into JavaScript (never the entries). Plain counts, so the counts of
 * several ledgers add up (`mergeCounts`); rates are derived after merging.
 */
export interface LedgerCounts {
  /** Runs started since, by agent, ending reason and status. */
  runs: { agent: string; endingReason: string | null; status: string | null; runs: number }[];
  nudgedRuns: number;
  finishedAfterNudge: number;
  guardFires: Record<string, number>;
  gateFires: Record<string, number>;
  rejectionsPerDay: Record<string, Record<string, number>>;
  failOpensByWhy: Record<string, number>;
  /** Stats contributors' own counts, by contributor name (added by `countForStats`, not the store). */
  contributed?: Record<string, unknown>;
}

type Row = Record<string, unknown>;

function bump(map: Record<string, number>, key: string, by: number): void {
  map[key] = (map[key] ?? 0) + by;
}

/** Every query of `tally stats`, by name; test/core/ledger/query-plans.test.ts keeps their plans. */
export const COUNT_SQL = {
  // One pass over the runs since: each one's ending, status and whether a guard nudged it (the
  // nudged runs' ids are gathered once from the index, then looked up per run).
  runsByEnding: `SELECT agent, ending_reason, status, COUNT(*) AS runs, SUM(nudged) AS nudged FROM (
          SELECT r.agent, e.outcome AS ending_reason, json_extract(e.data, '$.status') AS status,
                 r.id IN (SELECT run_id FROM entries
                           WHERE kind = 'guard' AND outcome = 'nudge' AND ts >= @since) AS nudged
            FROM runs r ${JOIN_END_ENTRY}
           WHERE r.started_at >= @since)
        GROUP BY agent, ending_reason, status
        ORDER BY agent, ending_reason IS NULL, ending_reason, status IS NULL, status`,
  fires: `SELECT kind, name, outcome, COUNT(*) AS n FROM entries
      WHERE kind IN ('guard', 'gate', 'fail_open') AND ts >= @since GROUP BY kind, name, outcome
      ORDER BY kind, name IS NULL, name, outcome IS NULL, outcome`,
  rejections: `SELECT substr(ts, 1, 10) AS day, COALESCE(json_extract(data, '$.error.code'), 'UNKNOWN') AS code,
            COUNT(*) AS n
       FROM entries WHERE kind = 'tool_call' AND outcome = 'rejected' AND ts >= @since
      GROUP BY day, code ORDER BY day, code`,
} as const;

/** The rows of each COUNT_SQL query, whichever database answered them (counts may come as text). */
export type CountRows = Record<keyof typeof COUNT_SQL, Row[]>;

/** Counts one ledger's runs and entries since `since` (an ISO time). */
export function countLedger(database: SqliteDatabase, since: string): LedgerCounts {
  const all = (sql: string) => database.prepare(sql).all({ since }) as Row[];
  return foldCounts({
    runsByEnding: all(COUNT_SQL.runsByEnding),
    fires: all(COUNT_SQL.fires),
    rejections: all(COUNT_SQL.rejections),
  });
}

/** The counts from the rows of the COUNT_SQL queries (or their PostgreSQL twins). */
export function foldCounts(rows: CountRows): LedgerCounts {
  const groups = rows.runsByEnding;
  const counts: LedgerCounts = {
    runs: groups.map((row) => ({
      agent: String(row.agent),
      endingReason: row.ending_reason === null ? null : String(row.ending_reason),
      status: row.status === null ? null : String(row.status),
      runs: Number(row.runs),
    })),
    nudgedRuns: groups.reduce((sum, row) => sum + Number(row.nudged), 0),
    finishedAfterNudge: groups
      .filter((row) => row.ending_reason === 'finished')
      .reduce((sum, row) => sum + Number(row.nudged), 0),
    guardFires: {},
    gateFires: {},
    rejectionsPerDay: {},
    failOpensByWhy: {},
  };
  // Fires count entries since `since` whatever run they belong to; kind and outcome lead the index.
  for (const row of rows.fires) {
    const n = Number(row.n);
    if (row.kind === 'fail_open') bump(counts.failOpensByWhy, String(row.outcome), n);
    else bump(row.kind === 'guard' ? counts.guardFires : counts.gateFires, `${row.name}:${row.outcome}`, n);
  }
  for (const row of rows.rejections) {
    const day = String(row.day);
    counts.rejectionsPerDay[day] ??= {};
    bump(counts.rejectionsPerDay[day], String(row.code), Number(row.n));
  }
  return counts;
}

/** Adds the counts of several ledgers. */
export function mergeCounts(all: LedgerCounts[]): LedgerCounts {
  const merged: LedgerCounts = {
    runs: [],
    nudgedRuns: 0,
    finishedAfterNudge: 0,
    guardFires: {},
    gateFires: {},
    rejectionsPerDay: {},
    failOpensByWhy: {},
  };
  const addAll = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [key, n] of Object.entries(from)) bump(into, key, n);
  };
  for (const counts of all) {
    merged.runs.push(...counts.runs);
    merged.nudgedRuns += counts.nudgedRuns;
    merged.finishedAfterNudge += counts.finishedAfterNudge;
    addAll(merged.guardFires, counts.guardFires);
    addAll(merged.gateFires, counts.gateFires);
    addAll(merged.failOpensByWhy, counts.failOpensByWhy);
    for (const [day, codes] of Object.entries(counts.rejectionsPerDay)) {
      merged.rejectionsPerDay[day] ??= {};
      addAll(merged.rejectionsPerDay[day], codes);
    }
  }
  return merged;
}
