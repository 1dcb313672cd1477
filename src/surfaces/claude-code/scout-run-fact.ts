import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { openReadOnlyDatabase } from '../../core/ledger/open-read-only.js';
import { scoutSessionMarkedAt } from '../../packs/records/scout-session-marker.js';
import { listStores } from '../../packs/records/stores.js';

/**
 * Endings after which a scout run has a report to act on: it finished (its report went through
 * the verifier) or it stopped because no record matches (an honest NOT FOUND). An aborted run,
 * a model or tool failure is no report.
 */
const REPORTED = ['finished', 'stopped'];

export type ScoutRunFact = { runId: string; ledger: string } | { none: string } | { unreadable: string };

/** When the ledger (or its write-ahead log) was last written, in ms; undefined when it does not exist. */
function lastWritten(ledger: string): number | undefined {
  const main = statSync(ledger, { throwIfNoEntry: false });
  if (!main) return undefined;
  const wal = statSync(`${ledger}-wal`, { throwIfNoEntry: false });
  return Math.max(main.mtimeMs, wal?.mtimeMs ?? 0);
}

/**
 * The ledger a scout run of this project lands in, as `tally scout` resolves it: TALLY_LEDGER,
 * else `.tally/ledger.db` under the records root (TALLY_RECORDS_ROOT, else the working directory).
 */
export function scoutLedgerPath(env: NodeJS.ProcessEnv, cwd: string): string {
  if (env.TALLY_LEDGER) return resolve(cwd, env.TALLY_LEDGER);
  return resolve(cwd, env.TALLY_RECORDS_ROOT || '.', '.tally', 'ledger.db');
}

/** The records root `tally scout` searches when the skill gives no --root: TALLY_RECORDS_ROOT, else the cwd. */
export function scoutRecordsRoot(env: NodeJS.ProcessEnv, cwd: string): string {
  return resolve(cwd, env.TALLY_RECORDS_ROOT || '.');
}

/**
 * Whether the project has a record store for the scout to consult. Without one, `tally scout`
 * refuses (NO_RECORD_STORES) and no scout run could ever open the gate: holding writes then
 * would only lock the user out. An unreadable store list counts as a store (the gate holds).
 */
export function hasRecordStores(root: string, env: NodeJS.ProcessEnv): boolean {
  try {
    return listStores(root, env).some((store) => store.exists);
  } catch {
    return true;
  }
}

/**
 * This turn's scout run, from the ledger — not from what a Skill or Agent said about itself:
 * a run of the `scout` agent whose meta names this session, started at or after the turn
 * began, ended with a report. However it ran (the how-do-i skill, the tally:scout agent, the
 * CLI), `tally scout --session <id>` put it there.
 */
export function findScoutRun(ledger: string, session: string, turnStartedAt: string): ScoutRunFact {
  let written: number | undefined;
  try {
    written = lastWritten(ledger);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') throw error;
    return { unreadable: `${ledger}: ${code}` };
  }
  if (written === undefined) return { none: `no ledger at ${ledger}` };
  // A run started in this turn wrote the ledger (or its WAL) since the turn began: a ledger
  // untouched since then cannot hold one, and need not be opened (SQLite costs a hook ~10 ms).
  // Two seconds of slack: file systems with coarse timestamps round an mtime down.
  const since = Date.parse(turnStartedAt);
  if (Number.isFinite(since) && written < since - 2000)
    return { none: `the ledger ${ledger} was not written since this turn began` };
  // No scout run of this session has ended since the turn began (its marker says when one
  // did): no need to open the ledger. The marker only rules out; the ledger decides.
  const marked = scoutSessionMarkedAt(ledger, session);
  if (Number.isFinite(since) && (marked === undefined || (marked !== 'unknown' && marked < since - 2000)))
    return {
      none: `no scout run of session ${session} has ended since ${turnStartedAt} (no marker beside ${ledger})`,
    };
  let database: ReturnType<typeof openReadOnlyDatabase>;
  try {
    database = openReadOnlyDatabase(ledger, 200);
  } catch (error) {
    return { unreadable: `${ledger}: ${error instanceof Error ? error.message : String(error)}` };
  }
  try {
    const row = database
      .prepare(
        `SELECT r.id AS id FROM runs r JOIN entries e ON e.run_id = r.id AND e.kind = 'end'
          WHERE r.agent = 'scout' AND json_extract(r.meta, '$.session') = ? AND r.started_at >= ?
            AND e.outcome IN (${REPORTED.map(() => '?').join(', ')})
          ORDER BY r.started_at DESC LIMIT 1`,
      )
      .get(session, turnStartedAt, ...REPORTED) as { id: string } | undefined;
    return row
      ? { runId: row.id, ledger }
      : { none: `no scout run of session ${session} since ${turnStartedAt} in ${ledger}` };
  } catch (error) {
    return { unreadable: `${ledger}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    database.close();
  }
}
