/** A unit of work that may release follow-up work (a parent's children) or fail the whole batch. */
export type BoundedTask = () => Promise<BoundedTask[] | { error: string }>;

/**
 * Runs tasks with at most `limit` in flight; follow-ups released by a finished task run
 * before queued siblings (a parent's children soon after the parent). The first failure
 * stops new starts; what is in flight settles before the failure is returned, so nothing
 * is left running behind the caller. A thrown error rejects after the same settling. An
 * aborted `signal` stops new starts the same way and resolves with "interrupted".
 */
export function runBounded(
  limit: number,
  tasks: BoundedTask[],
  signal?: AbortSignal,
): Promise<string | undefined> {
  const queue = [...tasks];
  let active = 0;
  let failure: string | undefined;
  let thrown: { error: unknown } | undefined;
  return new Promise((resolve, reject) => {
    const stopped = () => thrown !== undefined || failure !== undefined || signal?.aborted === true;
    const pump = (): void => {
      if (active === 0 && (stopped() || queue.length === 0)) {
        if (thrown) reject(thrown.error);
        else resolve(failure ?? (signal?.aborted && queue.length > 0 ? 'interrupted' : undefined));
        return;
      }
      while (!stopped() && active < limit && queue.length > 0) {
        const task = queue.shift() as BoundedTask;
        active += 1;
        task().then(
          (next) => {
            active -= 1;
            if (Array.isArray(next)) queue.unshift(...next);
            else failure ??= next.error;
            pump();
          },
          (error: unknown) => {
            active -= 1;
            thrown ??= { error };
            pump();
          },
        );
      }
    };
    pump();
  });
}
