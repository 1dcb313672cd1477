import type { RunRecord } from '../ledger/entry.js';
import type { Ledger } from '../ledger/ledger.js';

/**
 * The one read `tally verify` makes: a run and all its entries, in order. Async because ledger
 * reads become async with the PostgreSQL backend; built on the ledger's public `getRun`.
 */
export async function readRunForVerify(ledger: Pick<Ledger, 'getRun'>, runId: string): Promise<RunRecord> {
  return await ledger.getRun(runId);
}
