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
  chat?: ChatCounts;
}

export interface ChatCounts {
  turns: number;
  chatIds: string[];
  recoveries: Record<string, number>;
  nudgedTurns: number;
  conversationalTurns: number;
  pathOutsideProjectPerDay: Record<string, number>;
  treeByChat: Record<string, number>;
  cachedTrees: number;
}

type Row = Record<string, unknown>;

function bump(map: Record<string, number>, key: string, by: number): void {
  map[key] = (map[key] ?? 0) + by;
}

// Chat turns are the runs whose meta carries a `chatId` (the Coder's), a small share of runs.
// The chat queries below go from each chat run to its own entries (CROSS JOIN keeps that order;
// a unary + keeps SQLite from the (kind, …) index, which would walk every guard or tool call of
// the ledger once per chat run: 118 s at 1M entries).
const CHAT_RUNS = `
  WITH chat AS (
    SELECT r.id, json_extract(r.meta, '$.chatId') AS chat_id, r.meta, e.outcome AS ending_reason
      FROM runs r ${JOIN_END_ENTRY}
     WHERE r.started_at >= @since AND json_type(r.meta, '$.chatId') = 'text')`;

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
        GROUP BY agent, ending_reason, status`,
  fires: `SELECT kind, name, outcome, COUNT(*) AS n FROM entries
      WHERE kind IN ('guard', 'gate', 'fail_open') AND ts >= @since GROUP BY kind, name, outcome`,
  rejections: `SELECT substr(ts, 1, 10) AS day, COALESCE(json_extract(data, '$.error.code'), 'UNKNOWN') AS code,
            COUNT(*) AS n
       FROM entries WHERE kind = 'tool_call' AND outcome = 'rejected' AND ts >= @since
      GROUP BY day, code ORDER BY day`,
  chatTurns: `${CHAT_RUNS}
     SELECT chat.id, chat.chat_id, chat.ending_reason,
            json_extract(chat.meta, '$.orientation.computed') = 1 AS oriented,
            (SELECT t.outcome FROM entries t WHERE t.run_id = chat.id AND +t.kind = 'tool_call' AND +t.ts >= @since
              ORDER BY t.seq DESC LIMIT 1) AS last_call,
            EXISTS (SELECT 1 FROM entries g WHERE g.run_id = chat.id AND +g.kind = 'guard' AND +g.ts >= @since
                       AND +g.name = 'silence' AND +g.outcome = 'nudge') AS nudged,
            EXISTS (SELECT 1 FROM entries g WHERE g.run_id = chat.id AND +g.kind = 'guard' AND +g.ts >= @since
                       AND +g.name = 'conversational_first_turn') AS conversational
       FROM chat`,
  pathOutsideProject: `${CHAT_RUNS}
     SELECT substr(t.ts, 1, 10) AS day, COUNT(*) AS n FROM chat CROSS JOIN entries t ON t.run_id = chat.id
      WHERE +t.kind = 'tool_call' AND +t.ts >= @since AND +t.outcome = 'rejected'
        AND json_extract(t.data, '$.error.code') = 'PATH_OUTSIDE_PROJECT'
      GROUP BY day`,
  treeCalls: `${CHAT_RUNS}
     SELECT chat.chat_id, COUNT(*) AS n, SUM(json_extract(t.data, '$.evidence.cached') = 1) AS cached
       FROM chat CROSS JOIN entries t ON t.run_id = chat.id
      WHERE +t.kind = 'tool_call' AND +t.ts >= @since
        AND (t.name = 'fs_tree' OR json_extract(t.data, '$.tool') = 'fs_tree')
      GROUP BY chat.chat_id`,
} as const;

/** The rows of each COUNT_SQL query, whichever database answered them (counts may come as text). */
export type CountRows = Record<keyof typeof COUNT_SQL, Row[]>;

/** Counts one ledger's runs and entries since `since` (an ISO time). */
export function countLedger(database: SqliteDatabase, since: string): LedgerCounts {
  const all = (sql: string) => database.prepare(sql).all({ since }) as Row[];
  const turns = all(COUNT_SQL.chatTurns);
  // The two other chat queries only when there are chat turns at all (most ledgers have none).
  return foldCounts({
    runsByEnding: all(COUNT_SQL.runsByEnding),
    fires: all(COUNT_SQL.fires),
    rejections: all(COUNT_SQL.rejections),
    chatTurns: turns,
    pathOutsideProject: turns.length === 0 ? [] : all(COUNT_SQL.pathOutsideProject),
    treeCalls: turns.length === 0 ? [] : all(COUNT_SQL.treeCalls),
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
  const chat = foldChatTurns(rows);
  if (chat) counts.chat = chat;
  return counts;
}

/**
 * The chat-turn figures of issue 10, from the ledger alone: run meta (`chatId`, `orientation`),
 * guard entries, tool calls (`evidence.cached` on fs_tree), and each turn's last tool call (a
 * turn that ends in text right after a failed call is a `tool_failure` recovery).
 */
function foldChatTurns(rows: CountRows): ChatCounts | undefined {
  const turns = rows.chatTurns;
  if (turns.length === 0) return undefined;
  const counts: ChatCounts = {
    ...emptyChatCounts(),
    turns: turns.length,
    chatIds: [...new Set(turns.map((row) => String(row.chat_id)))],
  };
  for (const turn of turns) {
    if (Number(turn.oriented) === 1) bump(counts.treeByChat, String(turn.chat_id), 1);
    if (Number(turn.nudged) === 1) counts.nudgedTurns += 1;
    if (Number(turn.conversational) === 1) counts.conversationalTurns += 1;
    const reason =
      turn.ending_reason === 'finished'
        ? turn.last_call !== null && turn.last_call !== 'ok'
          ? 'tool_failure'
          : undefined
        : String(turn.ending_reason ?? 'open');
    if (reason) bump(counts.recoveries, reason, 1);
  }
  for (const row of rows.pathOutsideProject)
    bump(counts.pathOutsideProjectPerDay, String(row.day), Number(row.n));
  for (const row of rows.treeCalls) {
    bump(counts.treeByChat, String(row.chat_id), Number(row.n));
    counts.cachedTrees += Number(row.cached ?? 0);
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
    if (!counts.chat) continue;
    const chat = counts.chat;
    merged.chat ??= emptyChatCounts();
    merged.chat.turns += chat.turns;
    merged.chat.chatIds = [...new Set([...merged.chat.chatIds, ...chat.chatIds])];
    merged.chat.nudgedTurns += chat.nudgedTurns;
    merged.chat.conversationalTurns += chat.conversationalTurns;
    merged.chat.cachedTrees += chat.cachedTrees;
    addAll(merged.chat.recoveries, chat.recoveries);
    addAll(merged.chat.pathOutsideProjectPerDay, chat.pathOutsideProjectPerDay);
    addAll(merged.chat.treeByChat, chat.treeByChat);
  }
  return merged;
}

/** Chat counts before any turn is counted. */
function emptyChatCounts(): ChatCounts {
  return {
    turns: 0,
    chatIds: [],
    recoveries: {},
    nudgedTurns: 0,
    conversationalTurns: 0,
    pathOutsideProjectPerDay: {},
    treeByChat: {},
    cachedTrees: 0,
  };
}
