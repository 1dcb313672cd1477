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
  const start = () => {
    timer = setTimeout(() => controller.abort(signal.reason), Math.max(0, graceMs));
    // The grace never keeps a process alive on its own.
    timer.unref();
  };
  if (signal.aborted) start();
  else signal.addEventListener('abort', start, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', start);
    },
  };
}

/** The words a run's `aborted` ending carries for a caller's abort: its reason when it gave one. */
export function abortDetail(signal: AbortSignal): string {
  return typeof signal.reason === 'string' && signal.reason.trim()
    ? signal.reason
    : 'the caller aborted the run';
}
