import { LedgerError } from '../core/errors.js';
import type { Ledger } from '../core/ledger/ledger.js';

/**
 * Before a surface presents a run's outcome (a command's output, the chat page's changes report):
 * its entries are in the ledger, or the surface shows this error instead.
 * The ledger is the truth of what a run did; a "success" printed for a run the ledger has no end
 * for would be a report nothing backs. The process exits after the command, so entries the store
 * did not take within the busy limit are lost: LEDGER_BUSY (exit 3, one JSON document under
 * --json), naming the runs left incomplete.
 */
export async function requireRecorded(
  ledger: Ledger,
  runIds: readonly string[],
  work: { what: string; again: string } = { what: 'this command', again: 'run the command again' },
): Promise<void> {
  if (await ledger.commit()) return;
  const runs = runIds.join(', ');
  throw new LedgerError(
    'LEDGER_BUSY',
    `The ledger at ${ledger.path} did not take ${work.what}'s entries within the busy limit: they were NOT written, and run ${runs} is incomplete in the ledger (no end entry, \`tally verify\` cannot check it). Its outcome is not reported, because the ledger does not back it; anything it changed (items it created) may still exist. Check the ledger's server or lock, then ${work.again}.`,
    { path: ledger.path, runIds: [...runIds] },
  );
}

/**
 * Runs a command's `work`, then closes the ledger. When `work` failed, its error is the one the
 * user sees: a close that fails too (the same outage, after another busy limit) does not replace it.
 */
export async function usingLedger<T>(ledger: Ledger, work: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await Promise.resolve()
      .then(() => ledger.close())
      .catch(() => undefined);
    throw error;
  }
  await ledger.close();
  return result;
}
