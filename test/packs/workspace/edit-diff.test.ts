import { applyPatch, createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIFF_CONTEXT, editDiff } from '../../../src/packs/workspace/edit-diff.js';

const full = (before: string, after: string) =>
  createTwoFilesPatch('a/f.ts', 'b/f.ts', before, after, undefined, undefined, { context: DIFF_CONTEXT });

const numbered = (count: number) => Array.from({ length: count }, (_, line) => `line ${line + 1}\n`).join('');

describe('editDiff: the diff of the changed part only', () => {
  it.each([
    ['one line in the middle', numbered(200), numbered(200).replace('line 100\n', 'line hundred\n')],
    ['the first line', numbered(50), numbered(50).replace('line 1\n', 'first\n')],
    ['the last line, no newline after it', 'a\nb\nc\nd\ne\nf\ng', 'a\nb\nc\nd\ne\nf\nG'],
    ['a newline added at the end', numbered(20).slice(0, -1), numbered(20)],
    [
      'lines inserted into a run of equal lines',
      'x\ny\ny\ny\ny\ny\ny\nz\n',
      'x\ny\ny\ny\ny\ny\ny\ny\ny\nz\n',
    ],
    ['lines removed', numbered(30), numbered(30).replace('line 10\nline 11\nline 12\n', '')],
    [
      'two changes far apart',
      numbered(100),
      numbered(100).replace('line 5\n', 'five\n').replace('line 95\n', 'ninety-five\n'),
    ],
    ['CRLF endings', 'a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\n', 'a\r\nb\r\nc\r\nd\r\nE\r\nf\r\ng\r\nh\r\n'],
    ['everything', 'old\n', 'new\n'],
    ['to empty', numbered(3), ''],
    ['from empty', '', numbered(3)],
    ['no change', numbered(10), numbered(10)],
  ])('%s: the same text as a diff of the whole file', (_name, before, after) => {
    expect(editDiff('a/f.ts', 'b/f.ts', before, after)).toBe(full(before, after));
  });

  it('for any edit of any lines: the same text as the whole-file diff, and it turns the old text into the new', () => {
    const line = fc.constantFrom('a\n', 'b\n', 'c\n', 'a\r\n', '\n', 'a', 'b');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.array(line, { maxLength: 40 }), (one, two) => {
        // Only the last line may lack its newline, as in a file.
        const tidy = (lines: string[]) =>
          lines
            .map((text, index) => (index < lines.length - 1 && !text.endsWith('\n') ? `${text}\n` : text))
            .join('');
        const before = tidy(one);
        const after = tidy(two);
        const diff = editDiff('a/f.ts', 'b/f.ts', before, after);
        expect(applyPatch(before, diff)).toBe(after);
        expect(diff).toBe(full(before, after));
      }),
      { numRuns: 500 },
    );
  });
});
