/** How long calls in flight at an abort get to settle before they are abandoned. */
export const DEFAULT_ABORT_GRACE_MS = 5_000;

/**
 * A signal that aborts `graceMs` after `signal` does. A run that is aborted stops starting
 * calls at once; the calls already in flight get this one, so they may settle (and their
 * responses land in the ledger) for a bounded time, then are abandoned, each with its entry.
 */
export function afterGrace(
  signal: AbortSignal | undefined,
  graceMs: number = DEFAULT_ABORT_GRACE_MS,
): { signal?: AbortSignal; dispose(): void } {
  if (!signal) return { dispose: () => undefined };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const end = () => {
    clearTimeout(timer);
    running.delete(end);
    controller.abort(signal.reason);
  };
  const start = () => {
    timer = setTimeout(end, Math.max(0, graceMs));
    // The grace never keeps a process alive on its own.
    timer.unref();
    running.add(end);
  };
  if (signal.aborted) start();
  else signal.addEventListener('abort', start, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      running.delete(end);
      signal.removeEventListener('abort', start);
    },
  };
}

/** The graces running now (their signal aborted, their time not yet out). */
const running = new Set<() => void>();

/**
 * Ends every grace running now (the CLI's second Ctrl-C): the calls in flight are abandoned at
 * once, each with its entry, and their runs end `aborted` as after a grace — rather than the
 * process exiting with no end entry and no record of the requests it had sent.
 */
export function endGracesNow(): void {
  for (const end of [...running]) end();
}

/** The words a run's `aborted` ending carries for a caller's abort: its reason when it gave one. */
export function abortDetail(signal: AbortSignal): string {
  return typeof signal.reason === 'string' && signal.reason.trim()
    ? signal.reason
    : 'the caller aborted the run';
}
