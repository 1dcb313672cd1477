import type { Ledger } from '../../core/ledger/ledger.js';
import { markScoutSession } from '../../packs/records/scout-session-marker.js';

/**
 * After a scout run for a client session has ended, commit its entries and mark the session
 * beside the ledger: the how-do-i gate's cheap first look (`scout-session-marker.ts`) must
 * never point at a run another process cannot read yet.
 */
export async function markSessionOf(options: {
  ledger: Ledger;
  meta?: Record<string, unknown>;
}): Promise<void> {
  const session = options.meta?.session;
  if (typeof session !== 'string' || session === '') return;
  if (await options.ledger.commit()) markScoutSession(options.ledger.path, session);
}
