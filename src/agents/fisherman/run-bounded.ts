/** A unit of work that may release follow-up work (a parent's children) or fail the whole batch. */
export type BoundedTask = () => Promise<BoundedTask[] | { error: string }>;

/**
 * Runs tasks with at most `limit` in flight; follow-ups released by a finished task run
 * before queued siblings (a parent's children soon after the parent). The first failure
 * stops new starts; what is in flight settles before the failure is returned, so nothing
 * is left running behind the caller. A thrown error rejects after the same settling.
 */
export function runBounded(limit: number, tasks: BoundedTask[]): Promise<string | undefined> {
  const queue = [...tasks];
  let active = 0;
  let failure: string | undefined;
  let thrown: { error: unknown } | undefined;
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      if (active === 0 && (thrown || failure !== undefined || queue.length === 0)) {
        if (thrown) reject(thrown.error);
        else resolve(failure);
        return;
      }
      while (!thrown && failure === undefined && active < limit && queue.length > 0) {
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
