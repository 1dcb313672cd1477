import { applyPatch, createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIFF_CONTEXT, editDiff } from '../../../src/packs/workspace/edit-diff.js';

const full = (before: string, after: string) =>
  createTwoFilesPatch('a/f.ts', 'b/f.ts', before, after, undefined, undefined, { context: DIFF_CONTEXT });

/** Lines a patch removes or adds (not its `---`/`+++` header). */
const changedLines = (patch: string) =>
  patch
    .split('\n')
    .slice(4)
    .filter((line) => line.startsWith('-') || line.startsWith('+')).length;

/** Each hunk's body lines (context ' ', '-', '+'; the "\\ No newline" marker left out). */
const hunks = (patch: string) =>
  patch
    .split(/^@@.*@@$/m)
    .slice(1)
    .map((body) => body.split('\n').filter((line) => /^[ +-]/.test(line)));

/** Context lines before a hunk's first change. */
const leadingContext = (lines: string[]) => {
  const first = lines.findIndex((line) => !line.startsWith(' '));
  return first === -1 ? lines.length : first;
};

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

  // Where equal lines repeat around a change, a diff of the whole file may align it elsewhere
  // (both minimal: leaving out a shared start and end keeps a shortest edit script). What must
  // hold: the patch turns the old text into the new, with as few changed lines as the whole-file
  // diff, and no hunk shows more context than DIFF_CONTEXT around its changes.
  it('for any edit of any lines: it turns the old text into the new, as minimal as the whole-file diff', () => {
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
        expect(changedLines(diff)).toBe(changedLines(full(before, after)));
        for (const hunk of hunks(diff)) {
          expect(leadingContext(hunk)).toBeLessThanOrEqual(DIFF_CONTEXT);
          expect(leadingContext([...hunk].reverse())).toBeLessThanOrEqual(DIFF_CONTEXT);
        }
      }),
      { numRuns: 500 },
    );
  });
});
