import { describe, expect, it } from 'vitest';
import { parseSince } from '../../src/core/ledger/compute-stats.js';
import { parseWhen } from '../../src/core/parse-when.js';
import { parsePositiveWholeNumber } from '../../src/surfaces/cli/parse-option-values.js';

const NOW = Date.parse('2026-12-03T12:00:00.000Z');

describe('--since / --before: durations and real calendar dates only', () => {
  it('durations back from now, dates and times as written', () => {
    expect(parseWhen('90d', NOW)).toBe('2026-09-04T12:00:00.000Z');
    expect(parseWhen('12h', NOW)).toBe('2026-12-03T00:00:00.000Z');
    expect(parseWhen(' 2026-02-28 ', NOW)).toBe('2026-02-28T00:00:00.000Z');
    expect(parseWhen('2024-02-29', NOW)).toBe('2024-02-29T00:00:00.000Z');
    expect(parseWhen('2026-11-01T08:30Z', NOW)).toBe('2026-11-01T08:30:00.000Z');
  });

  it('a date the calendar does not have is refused, never moved into the next month', () => {
    for (const value of [
      '2026-02-30',
      '2026-02-29',
      '2026-13-01',
      '2026-04-31',
      '2026-00-10',
      'yesterday',
      '1',
      '',
    ])
      expect(parseWhen(value, NOW), value).toBeUndefined();
    expect(() => parseSince('2026-02-30', NOW)).toThrow(/neither a duration .* nor a date/);
  });

  it('--limit past 2^53 is a usage error, not a datatype mismatch from SQLite', () => {
    expect(parsePositiveWholeNumber('20')).toBe('20');
    expect(() => parsePositiveWholeNumber('99999999999999999999')).toThrow(/up to 9007199254740991/);
  });
});
