import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAtCharacter } from '../../src/packs/records/gloss.js';
import { runBounded } from '../packs/records/hostile-fixture.js';
import { corpus } from '../packs/records/records-fixture.js';

/** The cut by segmenting the whole text: what the bounded cut must equal. */
function wholeCut(text: string, max: number): string {
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map(
    (segment) => segment.segment,
  );
  return graphemes.length <= max ? text : `${graphemes.slice(0, max).join('').trimEnd()}...`;
}

const record = (line: string) =>
  `---\nid: SOL-long\nkind: solution\nkeywords: [longword]\n---\n${line}\nmore body\n`;

describe('a record whose first line is very long', () => {
  it('is glossed in its first 100 characters, and the store stays queryable (a 100,000-character line aborted Node)', async () => {
    const root = corpus();
    writeFileSync(join(root, 'references', 'solutions', 'long.md'), record('a'.repeat(100_000)));
    writeFileSync(join(root, 'references', 'solutions', 'accents.md'), record('é'.repeat(50_000)));
    for (const flags of [[], ['--no-index']]) {
      const run = await runBounded([
        'records',
        'query',
        '--root',
        root,
        '--keyword',
        'longword',
        '--json',
        ...flags,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const glosses = (JSON.parse(run.stdout) as { path: string; gloss: string }[]).map((row) => row.gloss);
      expect(glosses.sort()).toEqual([`${'a'.repeat(100)}...`, `${'é'.repeat(100)}...`]);
    }
  });

  it('the bounded cut equals segmenting the whole text, for marks, emoji and long clusters', () => {
    const pieces = fc.constantFrom(
      'a',
      'é',
      'e\u0301',
      '🙈',
      '👩‍👩‍👧',
      ' ',
      '\u0301',
      'x\u0301\u0301\u0301\u0301',
      '한',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 400 }), fc.integer({ min: 1, max: 40 }), (parts, max) => {
        const text = parts.join('');
        expect(cutAtCharacter(text, max)).toBe(wholeCut(text, max));
      }),
      { numRuns: 300 },
    );
  });

  it('a head of fewer characters than the limit (clusters of many marks) is cut before its last one', () => {
    const cluster = `x${'\u0301'.repeat(60)}`;
    const text = cluster.repeat(200);
    const cut = cutAtCharacter(text, 100);
    expect(cut.endsWith('...')).toBe(true);
    expect(text.startsWith(cut.slice(0, -3))).toBe(true);
    expect(cut.slice(0, -3).length % cluster.length).toBe(0);
  });
});
