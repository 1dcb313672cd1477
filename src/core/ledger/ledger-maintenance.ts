import type { SqliteDatabase } from '../sqlite/sqlite-database.js';
import { ENTRY_KINDS } from './entry.js';
import { entryDataProblems } from './entry-schemas.js';
import { APPEND_ONLY_DELETE_TRIGGER, SCHEMA_VERSION } from './schema.js';

export interface PurgeResult {
  /** Runs removed whole: started before the date, with no entry on or after it. */
  runs: number;
  entries: number;
}

// A run goes only whole and only once it has ended: started before the date, none of its
// entries on or after it, and an end entry (a run without one may still be writing — an idle MCP
// session — and purging it left its next entries with no run; `ledger check` lists such runs).
const PURGEABLE = `
  SELECT r.id FROM runs r
   WHERE r.started_at < @before
     AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.run_id = r.id AND e.ts >= @before)
     AND EXISTS (SELECT 1 FROM entries e WHERE e.run_id = r.id AND e.kind = 'end')`;

/**
 * Retention: removes every run that lies wholly before `before` (an ISO time), never part of a
 * run. The append-only trigger is lifted and restored inside the same transaction, so no other
 * connection ever sees the ledger without it. With `dryRun`, only counts.
 */
export function purgeRuns(database: SqliteDatabase, before: string, dryRun = false): PurgeResult {
  // The ids once, then everything by them: once a run's entries are gone, its end entry no
  // longer marks it purgeable, so the query could not be asked again.
  const purgeable = () => {
    const found = database.prepare(PURGEABLE).pluck().all({ before });
    const ids = JSON.stringify(found);
    const entries = database
      .prepare('SELECT COUNT(*) FROM entries WHERE run_id IN (SELECT value FROM json_each(?))')
      .pluck()
      .get(ids) as number;
    return { ids, counted: { runs: found.length, entries } };
  };
  if (dryRun) return purgeable().counted;
  return database
    .transaction(() => {
      const { ids, counted } = purgeable();
      if (counted.runs === 0) return counted;
      database.exec('DROP TRIGGER IF EXISTS entries_append_only_delete');
      database.prepare('DELETE FROM entries WHERE run_id IN (SELECT value FROM json_each(?))').run(ids);
      database.prepare('DELETE FROM runs WHERE id IN (SELECT value FROM json_each(?))').run(ids);
      database.exec(APPEND_ONLY_DELETE_TRIGGER);
      return counted;
    })
    .immediate();
}

/** Rewrites the file without the free pages a purge left, then truncates the WAL. */
export function vacuumLedger(database: SqliteDatabase): void {
  database.exec('VACUUM');
  database.pragma('wal_checkpoint(TRUNCATE)');
}

export interface LedgerProblem {
  /** Which check found it: integrity, schema, runs, sequence, end, kind, shape, json. */
  check: string;
  message: string;
}

const TRIGGERS = ['entries_append_only_update', 'entries_append_only_delete', 'runs_append_only_update'];

// What each backend's integrity queries found, in the same words whichever store ran them.
type Row = Record<string, unknown>;

/** Entries whose run has no start row. */
export function orphanedEntries(row: Row): LedgerProblem {
  return { check: 'runs', message: `${row.n} entries of run ${row.run_id}, which has no start row` };
}

/** A run whose numbering has a gap or a duplicate, or that ended more than once. */
export function runOrderProblems(row: Row): LedgerProblem[] {
  const problems: LedgerProblem[] = [];
  if (Number(row.first) !== 1 || Number(row.last) !== Number(row.n))
    problems.push({
      check: 'sequence',
      message: `run ${row.run_id}: ${row.n} entries numbered ${row.first}..${row.last} (a gap or a duplicate)`,
    });
  if (Number(row.ends) > 1)
    problems.push({ check: 'end', message: `run ${row.run_id} has ${row.ends} end entries` });
  return problems;
}

/** Entries of a kind this Tally does not know. */
export function unknownKind(row: Row): LedgerProblem {
  return { check: 'kind', message: `${row.n} entries of unknown kind "${row.kind}"` };
}

/** An entry whose data, or a run whose meta, is not JSON text (`id` for a run, `run_id`+`seq` for an entry). */
export function notJson(row: Row): LedgerProblem {
  return row.id === undefined
    ? { check: 'json', message: `entry ${row.run_id}#${row.seq}: data is not JSON` }
    : { check: 'json', message: `run ${row.id}: meta is not JSON` };
}

/** An entry whose data does not fit its kind's schema: readers see it as a malformed entry. */
export function malformedEntry(row: Row, problems: string[]): LedgerProblem {
  return {
    check: 'shape',
    message: `entry ${row.run_id}#${row.seq} (${row.kind}) does not fit its kind: ${problems.join('; ')}`,
  };
}

export type ShapeRow = Row & { run_id: string; seq: number | string; kind: string; data: string };

/**
 * The shape check both stores run over every entry: each known kind's data against its schema
 * (data that is not JSON, or of an unknown kind, is another check's finding); the first `limit`
 * misfits named, the rest counted.
 */
export function shapeCheck(limit: number): { see(row: ShapeRow): void; problems(): LedgerProblem[] } {
  const named: LedgerProblem[] = [];
  let misfits = 0;
  return {
    see(row) {
      if (!(ENTRY_KINDS as readonly string[]).includes(row.kind)) return;
      let data: unknown;
      try {
        data = JSON.parse(row.data);
      } catch {
        return;
      }
      const found = entryDataProblems(row.kind, data);
      if (found.length > 0 && ++misfits <= limit) named.push(malformedEntry(row, found));
    },
    problems() {
      return misfits > limit
        ? [...named, { check: 'shape', message: `${misfits - limit} more entries do not fit their kind` }]
        : named;
    },
  };
}

/**
 * SQLite's own integrity check, then Tally's invariants: the schema is one this Tally knows,
 * append-only triggers in place, every entry belongs to a run that has its start row, each run's
 * entries are numbered 1..n without gaps, at most one end per run, known kinds, JSON data, and
 * data that fits its kind's schema (every entry is read: this is the one full scan `check` makes).
 */
export function checkLedger(database: SqliteDatabase, limit = 20): LedgerProblem[] {
  const problems: LedgerProblem[] = [];
  const rows = (sql: string) => database.prepare(sql).all() as Record<string, unknown>[];
  for (const row of rows('PRAGMA integrity_check')) {
    const message = String(Object.values(row)[0]);
    if (message !== 'ok') problems.push({ check: 'integrity', message });
  }
  const version = database.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION)
    problems.push({
      check: 'schema',
      message: `schema version ${version} is newer than this Tally's ${SCHEMA_VERSION}: upgrade Tally`,
    });
  const triggers = new Set(
    rows("SELECT name FROM sqlite_master WHERE type = 'trigger'").map((row) => String(row.name)),
  );
  for (const trigger of TRIGGERS)
    if (!triggers.has(trigger))
      problems.push({ check: 'schema', message: `the append-only trigger ${trigger} is missing` });
  for (const row of rows(
    `SELECT run_id, COUNT(*) AS n FROM entries e WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = e.run_id)
      GROUP BY run_id LIMIT ${limit}`,
  ))
    problems.push(orphanedEntries(row));
  for (const row of rows(
    `SELECT run_id, MIN(seq) AS first, MAX(seq) AS last, COUNT(*) AS n, SUM(kind = 'end') AS ends
       FROM entries GROUP BY run_id HAVING first <> 1 OR last <> n OR ends > 1 LIMIT ${limit}`,
  ))
    problems.push(...runOrderProblems(row));
  const known = ENTRY_KINDS.map((kind) => `'${kind}'`).join(', ');
  for (const row of rows(
    `SELECT kind, COUNT(*) AS n FROM entries WHERE kind NOT IN (${known}) GROUP BY kind LIMIT ${limit}`,
  ))
    problems.push(unknownKind(row));
  const shapes = shapeCheck(limit);
  for (const row of database
    .prepare(`SELECT run_id, seq, kind, data FROM entries WHERE kind IN (${known}) AND json_valid(data)`)
    .iterate() as IterableIterator<ShapeRow>)
    shapes.see(row);
  problems.push(...shapes.problems());
  for (const row of rows(`SELECT run_id, seq FROM entries WHERE NOT json_valid(data) LIMIT ${limit}`))
    problems.push(notJson(row));
  for (const row of rows(`SELECT id FROM runs WHERE NOT json_valid(meta) LIMIT ${limit}`))
    problems.push(notJson(row));
  return problems;
}
