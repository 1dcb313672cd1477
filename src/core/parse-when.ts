/**
 * A time as users write it on the command line (`--since`, `--before`): a duration back from
 * now (`90d`, `12h`, `30m`) or a date with an optional time (`2026-11-01`, `2026-11-01T08:00Z`),
 * as an ISO time; undefined for anything else. A date the calendar does not have
 * (`2026-02-30`) is refused, not moved to March 2 as `Date` would: a retention command must
 * not delete more than it was asked to.
 */
export function parseWhen(value: string, now: number = Date.now()): string | undefined {
  const text = value.trim();
  const duration = /^(\d+)([dhm])$/.exec(text);
  if (duration) {
    const unit = duration[2] === 'd' ? 86_400_000 : duration[2] === 'h' ? 3_600_000 : 60_000;
    const at = new Date(now - Number(duration[1]) * unit);
    return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
  }
  // A date alone, as users write it; Date would also take "1", "yesterday" in some engines.
  const date = /^(\d{4})-(\d{2})-(\d{2})([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  if (!date) return undefined;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day
  )
    return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}
