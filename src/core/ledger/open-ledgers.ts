/**
 * Ledgers whose writes are not synchronous (PostgreSQL: a commit is a network round trip), so
 * that an exit path which cannot wait for `close()` — the CLI's second Ctrl-C, which calls
 * `process.exit` — can still commit what they queue, within a bound it chooses. SQLite needs
 * no entry here: it writes synchronously on the process's `exit` event.
 */
interface Committable {
  commit(limitMs?: number): Promise<boolean>;
}

const open = new Set<Committable>();

/** Registers a ledger until the returned function is called (on its close). */
export function trackOpenLedger(ledger: Committable): () => void {
  open.add(ledger);
  return () => open.delete(ledger);
}

/** Commits every open ledger's queue, each retrying an unreachable store at most `limitMs`. */
export async function commitOpenLedgers(limitMs: number): Promise<boolean> {
  const results = await Promise.all([...open].map((ledger) => ledger.commit(limitMs).catch(() => false)));
  return results.every(Boolean);
}
