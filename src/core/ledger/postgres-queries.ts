import type { COUNT_SQL } from './ledger-counts.js';

/**
 * The PostgreSQL twins of the SQLite ledger's read queries: the same columns and meaning, so the
 * same code folds their rows (`foldCounts`). JSON is stored as text and read through `::jsonb`;
 * `$1` is the `since` (or `before`) time. Where SQLite's json_extract turns JSON true into 1,
 * these compare with both `true` and `1`.
 */
/** A run's first `end` entry as `e` (PostgreSQL's twin of `JOIN_END_ENTRY`), for stats contributors too. */
export const PG_JOIN_END_ENTRY = `LEFT JOIN entries e ON e.run_id = r.id AND e.seq =
  (SELECT x.seq FROM entries x WHERE x.run_id = r.id AND x.kind = 'end' ORDER BY x.seq LIMIT 1)`;

/** $1 since, $2 agent or null, $3 limit or null (all). */
export const PG_LIST_RUNS_SQL = `SELECT r.*, e.outcome AS ending_reason, e.data::jsonb ->> 'status' AS status, e.ts AS ended_at,
       (SELECT COUNT(*) FROM entries t WHERE t.run_id = r.id AND t.kind = 'tool_call')::int AS tool_calls
  FROM (SELECT * FROM runs WHERE started_at >= $1 AND ($2::text IS NULL OR agent = $2)
         ORDER BY id DESC LIMIT $3) r
  ${PG_JOIN_END_ENTRY}
 ORDER BY r.id DESC`;

export const PG_COUNT_SQL: Record<keyof typeof COUNT_SQL, string> = {
  runsByEnding: `SELECT agent, ending_reason, status, COUNT(*)::int AS runs, SUM(nudged)::int AS nudged FROM (
      SELECT r.agent, e.outcome AS ending_reason, e.data::jsonb ->> 'status' AS status,
             CASE WHEN r.id IN (SELECT run_id FROM entries
                                 WHERE kind = 'guard' AND outcome = 'nudge' AND ts >= $1) THEN 1 ELSE 0 END AS nudged
        FROM runs r ${PG_JOIN_END_ENTRY}
       WHERE r.started_at >= $1) s
    GROUP BY agent, ending_reason, status
    ORDER BY agent COLLATE "C", ending_reason IS NULL, ending_reason COLLATE "C", status IS NULL, status COLLATE "C"`,
  fires: `SELECT kind, name, outcome, COUNT(*)::int AS n FROM entries
    WHERE kind IN ('guard', 'gate', 'fail_open') AND ts >= $1 GROUP BY kind, name, outcome
    ORDER BY kind COLLATE "C", name IS NULL, name COLLATE "C", outcome IS NULL, outcome COLLATE "C"`,
  rejections: `SELECT substr(ts, 1, 10) AS day, COALESCE(data::jsonb #>> '{error,code}', 'UNKNOWN') AS code,
          COUNT(*)::int AS n
     FROM entries WHERE kind = 'tool_call' AND outcome = 'rejected' AND ts >= $1
    GROUP BY 1, 2 ORDER BY 1, COALESCE(data::jsonb #>> '{error,code}', 'UNKNOWN') COLLATE "C"`,
};

/** Ended runs wholly before $1: started before it, none of their entries on or after it, an end entry. */
export const PG_PURGEABLE = `
  SELECT r.id FROM runs r
   WHERE r.started_at < $1
     AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.run_id = r.id AND e.ts >= $1)
     AND EXISTS (SELECT 1 FROM entries e WHERE e.run_id = r.id AND e.kind = 'end')`;
