import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncate } from '../../src/surfaces/cli/format-table.js';

/** The rule, written the obvious way: collapse whitespace, then cut to `max` code points with `…`. */
function byTheRule(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

describe('truncate (what `runs show` prints of an input, evidence or error)', () => {
  it('is the rule for any text: whitespace runs, astral characters, long bodies', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '\n', '\t', '😀', 'é', '  ');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 3000 }), fc.integer({ min: 1, max: 300 }), (text, max) => {
        expect(truncate(text, max)).toBe(byTheRule(text, max));
      }),
      { numRuns: 5000 },
    );
  });

  it('a long body whose head is all whitespace still shows what follows it', () => {
    const text = `${' '.repeat(10_000)}the answer${'\n'.repeat(10_000)}more`;
    expect(truncate(text, 20)).toBe('the answer more');
    expect(truncate('x'.repeat(1_000_000), 5)).toBe('xxxx…');
    expect(truncate('12345', 5)).toBe('12345');
  });
});
