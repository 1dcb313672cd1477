import type { COUNT_SQL } from './ledger-counts.js';

/**
 * The PostgreSQL twins of the SQLite ledger's read queries: the same columns and meaning, so the
 * same code folds their rows (`foldCounts`). JSON is stored as text and read through `::jsonb`;
 * `$1` is the `since` (or `before`) time. Where SQLite's json_extract turns JSON true into 1,
 * these compare with both `true` and `1`.
 */
const END_ENTRY = `LEFT JOIN entries e ON e.run_id = r.id AND e.seq =
  (SELECT x.seq FROM entries x WHERE x.run_id = r.id AND x.kind = 'end' ORDER BY x.seq LIMIT 1)`;

/** $1 since, $2 agent or null, $3 limit or null (all). */
export const PG_LIST_RUNS_SQL = `SELECT r.*, e.outcome AS ending_reason, e.data::jsonb ->> 'status' AS status, e.ts AS ended_at,
       (SELECT COUNT(*) FROM entries t WHERE t.run_id = r.id AND t.kind = 'tool_call')::int AS tool_calls
  FROM (SELECT * FROM runs WHERE started_at >= $1 AND ($2::text IS NULL OR agent = $2)
         ORDER BY id DESC LIMIT $3) r
  ${END_ENTRY}
 ORDER BY r.id DESC`;

const IS_TRUE = (path: string) => `(${path}) IN ('true'::jsonb, '1'::jsonb)`;

const CHAT_RUNS = `
  WITH chat AS (
    SELECT r.id, r.meta::jsonb ->> 'chatId' AS chat_id, r.meta::jsonb AS meta, e.outcome AS ending_reason
      FROM runs r ${END_ENTRY}
     WHERE r.started_at >= $1 AND jsonb_typeof(r.meta::jsonb -> 'chatId') = 'string')`;

export const PG_COUNT_SQL: Record<keyof typeof COUNT_SQL, string> = {
  runsByEnding: `SELECT agent, ending_reason, status, COUNT(*)::int AS runs, SUM(nudged)::int AS nudged FROM (
      SELECT r.agent, e.outcome AS ending_reason, e.data::jsonb ->> 'status' AS status,
             CASE WHEN r.id IN (SELECT run_id FROM entries
                                 WHERE kind = 'guard' AND outcome = 'nudge' AND ts >= $1) THEN 1 ELSE 0 END AS nudged
        FROM runs r ${END_ENTRY}
       WHERE r.started_at >= $1) s
    GROUP BY agent, ending_reason, status`,
  fires: `SELECT kind, name, outcome, COUNT(*)::int AS n FROM entries
    WHERE kind IN ('guard', 'gate', 'fail_open') AND ts >= $1 GROUP BY kind, name, outcome`,
  rejections: `SELECT substr(ts, 1, 10) AS day, COALESCE(data::jsonb #>> '{error,code}', 'UNKNOWN') AS code,
          COUNT(*)::int AS n
     FROM entries WHERE kind = 'tool_call' AND outcome = 'rejected' AND ts >= $1
    GROUP BY 1, 2 ORDER BY 1`,
  chatTurns: `${CHAT_RUNS}
    SELECT chat.id, chat.chat_id, chat.ending_reason,
           CASE WHEN ${IS_TRUE("chat.meta #> '{orientation,computed}'")} THEN 1 ELSE 0 END AS oriented,
           (SELECT t.outcome FROM entries t WHERE t.run_id = chat.id AND t.kind = 'tool_call' AND t.ts >= $1
             ORDER BY t.seq DESC LIMIT 1) AS last_call,
           CASE WHEN EXISTS (SELECT 1 FROM entries g WHERE g.run_id = chat.id AND g.kind = 'guard' AND g.ts >= $1
                      AND g.name = 'silence' AND g.outcome = 'nudge') THEN 1 ELSE 0 END AS nudged,
           CASE WHEN EXISTS (SELECT 1 FROM entries g WHERE g.run_id = chat.id AND g.kind = 'guard' AND g.ts >= $1
                      AND g.name = 'conversational_first_turn') THEN 1 ELSE 0 END AS conversational
      FROM chat`,
  pathOutsideProject: `${CHAT_RUNS}
    SELECT substr(t.ts, 1, 10) AS day, COUNT(*)::int AS n FROM chat JOIN entries t ON t.run_id = chat.id
     WHERE t.kind = 'tool_call' AND t.ts >= $1 AND t.outcome = 'rejected'
       AND t.data::jsonb #>> '{error,code}' = 'PATH_OUTSIDE_PROJECT'
     GROUP BY 1`,
  treeCalls: `${CHAT_RUNS}
    SELECT chat.chat_id, COUNT(*)::int AS n,
           SUM(CASE WHEN ${IS_TRUE("t.data::jsonb #> '{evidence,cached}'")} THEN 1 ELSE 0 END)::int AS cached
      FROM chat JOIN entries t ON t.run_id = chat.id
     WHERE t.kind = 'tool_call' AND t.ts >= $1
       AND (t.name = 'fs_tree' OR t.data::jsonb ->> 'tool' = 'fs_tree')
     GROUP BY chat.chat_id`,
};

/** Runs wholly before $1: started before it, none of their entries on or after it. */
export const PG_PURGEABLE = `
  SELECT r.id FROM runs r
   WHERE r.started_at < $1
     AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.run_id = r.id AND e.ts >= $1)`;
