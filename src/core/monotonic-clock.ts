/**
 * Milliseconds on a monotonic clock, for durations and waits only (its origin is arbitrary).
 * process.hrtime, not `performance.now()`: on Node 20 the first use of the `performance` global
 * loads perf_hooks (about ten internal modules, ~2 ms), which a `tally fish` needs for nothing
 * else (issue 22).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
