import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recall } from '../../../src/packs/records/recall.js';
import type { RecallCandidate } from '../../../src/packs/records/record-query.js';
import { tempDir } from '../../helpers.js';

// Few words and few paths: many equal scores, so the order among ties (the path, then the log
// line) decides which hits make the cut. `é` composed and decomposed are two paths locale order
// calls equal: the answer must not depend on the order the candidates came in.
const word = fc.constantFrom('migration', 'lock', 'peak', 'Migration', 'migrations', 'x');
const text = fc.array(word, { maxLength: 8 }).map((words) => words.join(' '));
const candidate = fc.record({
  path: fc
    .constantFrom('a.md', 'B.md', 'b.md', 'c/d.md', '\u00e9.md', 'e\u0301.md', 'z.md')
    .chain((name) => fc.nat(3).map((n) => `failure-modes/${n}-${name}`)),
  gloss: fc.constant('g'),
  text,
});

describe('recall: the best `limit` hits, whatever the limit', () => {
  it('equal to the first `limit` of the whole ranking, with every hit counted', () => {
    const root = tempDir();
    fc.assert(
      fc.property(
        fc.uniqueArray(candidate, { selector: (entry) => entry.path, maxLength: 60 }),
        fc.array(text, { maxLength: 30 }),
        fc.constantFrom('migration', 'migration lock', 'lock peak x'),
        fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 250, max: 300 })),
        (candidates: RecallCandidate[], lines, terms, limit) => {
          writeFileSync(
            join(root, 'mistakes.jsonl'),
            lines.map((line) => JSON.stringify({ description: line })).join('\n'),
          );
          const whole = recall(root, candidates, terms);
          const cut = recall(root, [...candidates].reverse(), terms, {}, limit);
          expect(cut.matched).toBe(whole.hits.length);
          expect(cut.hits).toEqual(whole.hits.slice(0, limit));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a limit above the kept-by-insertion size: sorted once, the same cut', () => {
    const root = tempDir();
    writeFileSync(join(root, 'mistakes.jsonl'), '');
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 300, maxLength: 400 }),
        fc.integer({ min: 257, max: 320 }),
        (texts, limit) => {
          const candidates = texts.map((entry, index) => ({ path: `r/${index}.md`, gloss: '', text: entry }));
          const whole = recall(root, candidates, 'migration lock');
          const cut = recall(root, candidates, 'migration lock', {}, limit);
          expect(cut.hits).toEqual(whole.hits.slice(0, limit));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('interleaves the two sources: a capped list shows the best log line beside the records', () => {
    const root = tempDir();
    writeFileSync(join(root, 'mistakes.jsonl'), `${JSON.stringify({ description: 'migration once' })}\n`);
    const candidates = ['a', 'b', 'c'].map((name) => ({
      path: `failure-modes/${name}.md`,
      gloss: name,
      text: 'migration migration',
    }));
    const { matched, hits } = recall(root, candidates, 'migration', {}, 2);
    expect(matched).toBe(4);
    expect(hits.map((hit) => hit.where)).toEqual(['failure-modes/a.md', 'mistakes.jsonl:1']);
    // The better top hit starts the list, whichever source it is from.
    writeFileSync(
      join(root, 'mistakes.jsonl'),
      `${JSON.stringify({ description: 'migration x3 migration migration' })}\n`,
    );
    expect(recall(root, candidates, 'migration', {}, 2).hits.map((hit) => hit.where)).toEqual([
      'mistakes.jsonl:1',
      'failure-modes/a.md',
    ]);
  });
});
