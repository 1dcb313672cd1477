import type { LedgerEntry } from './entry.js';
import type { Ledger } from './ledger.js';

/** Entries read per round trip: big enough to amortise it, small enough to keep memory flat. */
export const RUN_PAGE_SIZE = 2000;

/**
 * A run's committed entries in order, a page at a time (keyset on seq): what `runs show` and
 * `report` read, so a run of a million entries costs one page of memory, not the run.
 */
export async function* runEntryPages(
  ledger: Pick<Ledger, 'runEntriesAfter'>,
  runId: string,
  pageSize = RUN_PAGE_SIZE,
): AsyncGenerator<LedgerEntry[]> {
  let after = 0;
  for (;;) {
    const page = await ledger.runEntriesAfter(runId, after, pageSize);
    if (page.length === 0) return;
    yield page;
    after = (page.at(-1) as LedgerEntry).seq;
    if (page.length < pageSize) return;
  }
}
