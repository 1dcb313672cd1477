/**
 * How long one write attempt waits for another process's write lock. SQLite's busy handler
 * sleeps inside the call, blocking the event loop, so this stays short; longer waits are
 * asynchronous retries that let every other call run in between.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 50;

/** Past this total wait the ledger reports LEDGER_BUSY (entries stay queued and are still written). */
export const DEFAULT_BUSY_LIMIT_MS = 10_000;

const BACKOFF_MS = [10, 20, 40, 80, 160, 250];

/** The delay before retry number `attempt` (0-based): doubling, capped so a freed lock is noticed soon. */
export function retryDelay(attempt: number): number {
  return BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] as number;
}

/** Blocks this thread for `ms`: only where nothing is being served yet (opening a ledger). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** True for SQLite's "another connection holds the lock" errors (SQLITE_BUSY and its extended codes). */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED');
}

/** SQLite's "file is not a database" (or a damaged one): a wrong --ledger, not a bug. */
export function isNotADatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_NOTADB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'));
}
