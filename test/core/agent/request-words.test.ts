import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crossChecked } from '../../../src/core/agent/contract.js';
import { requestWords, unaccounted } from '../../../src/core/agent/request-words.js';

const words = (task: string, types: string[] = []) =>
  requestWords(task, types).map((word) => `${word.kind}:${word.norm}`);

describe('the words of a request a stated contract must account for', () => {
  it.each([
    ['2 suites with 3 tests each', ['number:2', 'number:3']],
    ['two suites with three tests in it', ['number:2', 'number:3']],
    ['a suite with a dozen tests', ['number:12']],
    ['a suite "Smoke 2.0" with 4 tests', ['quoted:smoke 2.0', 'number:4']],
    ['suites “Alpha” and “Beta” in project alpha-shop', ['quoted:alpha', 'quoted:beta', 'name:alpha-shop']],
    [
      'create notes/todo.md and .env, then edit ./src/a.ts',
      ['path:notes/todo.md', 'path:.env', 'path:src/a.ts'],
    ],
    ["don't touch README.md", ['path:readme.md']],
    ['add a line, e.g. hello', []],
    ['write `hello world` into out.txt', ['quoted:hello world', 'path:out.txt']],
    ['20-30 items for team qa', ['name:qa', 'number:20', 'number:30']],
  ])('%s', (task, expected) => {
    expect(words(task)).toEqual(expected);
  });

  it('type words come from the agent, once each', () => {
    expect(words('2 suites and a suite', ['suites', 'suites'])).toEqual([
      'number:2',
      'count:2 suites',
      'type:suites',
    ]);
  });

  it.each([
    ["I'd like three suites, and give each of them two tests", ['count:3 suites', 'count:2 tests']],
    ['a dozen suites with 2 test cases', ['count:12 suites', 'count:2 test cases']],
    ['a couple of suites and a pair of tests', ['count:2 suites', 'count:2 tests']],
    // Part of a longer number, or parted from the type by punctuation: no count of a type.
    ['half a dozen suites, 3 dozen tests', []],
    ['twenty one suites', []],
    ['suites: 3, tests', []],
  ])('a number right before a type word is that type’s count: %s', (task, expected) => {
    const types = ['suites', 'tests', 'test cases'];
    expect(words(task, types).filter((word) => word.startsWith('count:'))).toEqual(expected);
  });

  it('a count stated for another type does not account for it; a contract stating no counts is not held to them', () => {
    const wanted = requestWords("I'd like three suites, and give each of them two tests", [
      'suites',
      'tests',
    ]);
    const swapped = ['2', 'suites', '2 suites', '3', 'tests', '3 tests'];
    expect(unaccounted(wanted, swapped)).toEqual(['three suites', 'two tests']);
    expect(unaccounted(wanted, ['3', 'suite', '3 suite', '2', 'test', '2 test'])).toEqual([]);
    expect(unaccounted(wanted, ['3', 'suites', '2', 'tests'])).toEqual([]);
  });

  it('"a pair of" and "a couple of" are two', () => {
    expect(unaccounted(requestWords('a pair of suites', ['suites']), ['3', 'suites', '3 suites'])).toEqual([
      'pair',
      'pair of suites',
    ]);
    expect(unaccounted(requestWords('a couple of suites', ['suites']), ['2', 'suites', '2 suites'])).toEqual(
      [],
    );
  });

  it('numbers as digits or words, paths in any spelling, types singular or plural are accounted for', () => {
    const wanted = requestWords('two suites with 3 tests in ./docs/a.md', ['suites', 'tests']);
    expect(unaccounted(wanted, ['2', 'suite', 'three', 'test', 'docs/a.md'])).toEqual([]);
    expect(unaccounted(wanted, ['1', 'suite', '3', 'docs/b.md'])).toEqual(['two', './docs/a.md', 'tests']);
  });

  it('a cross-checked contract names what it dropped, as the request spelled it', () => {
    const contract = crossChecked(
      { description: '1 suite', data: {}, words: ['1', 'suite'] },
      'two suites "Smoke" and "Load" in project shop',
      { typeWords: () => ['suites'] },
      'model',
    );
    expect(contract.dropped).toEqual(['Smoke', 'Load', 'shop', 'two']);
  });

  it('never throws and never demands a word twice, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }),
        (task, types) => {
          const found = requestWords(task, types);
          const keys = found.map((word) => `${word.kind}\u0000${word.norm}`);
          expect(new Set(keys).size).toBe(keys.length);
          // Every word accounts for itself.
          expect(
            unaccounted(
              found,
              found.map((word) => word.text),
            ),
          ).toEqual([]);
        },
      ),
    );
  });
});

describe('request words: the edges of each kind', () => {
  it.each([
    // Single quotes: at the start, after a space, before the end, a space or punctuation.
    ["'Smoke' and 'Load' suites, 'Perf'", ['quoted:smoke', 'quoted:load', 'quoted:perf']],
    // Names after a keyword, however spaced, with or without "named"/"called".
    ['in project  shop', ['name:shop']],
    ['in project named shop', ['name:shop']],
    ['in project named  shop', ['name:shop']],
    ['for team called qa', ['name:qa']],
    ['for team called  qa', ['name:qa']],
    ['in project v1.2', ['name:v1.2']],
    ['in project shop.', ['name:shop']],
    ['in project shop...', ['name:shop']],
    // Punctuation is stripped from a word's edges only, however much of it there is.
    ['at 2:30 run 3 tests', ['number:3']],
    ['counts: (2), [(3)]', ['number:2', 'number:3']],
    ['a suite with tests, 3 in all.', ['number:3']],
    ['a suite with tests, in all 3.', ['number:3']],
    // Words that only look like files or numbers.
    ['at 9 a.m. and 5 p.m.', ['number:9', 'number:5']],
    ['that is, i.e. the rest', []],
    ['email bob@example.com', []],
    ["use node.js's runner", []],
    ['Q&A.docs', []],
    ["the .NET's runtime", []],
    ['within +/- 2', ['number:2']],
    ['the 2nd suite, v2', []],
    // Paths: "../" is kept, and a quoted text leaves a space where it was.
    ['copy ../lib/a.ts', ['path:../lib/a.ts']],
    ['2"Smoke"3 tests', ['quoted:smoke', 'number:2', 'number:3']],
    ['a suite " Smoke "', ['quoted:smoke']],
  ])('%s', (task, expected) => {
    expect(words(task)).toEqual(expected);
  });

  it('without type words from the agent, none are demanded; given ones are trimmed', () => {
    expect(requestWords('2 suites').map((word) => word.kind)).toEqual(['number']);
    expect(requestWords('suites', [' suites '])).toEqual([{ kind: 'type', text: 'suites', norm: 'suites' }]);
    expect(requestWords('a suite " Smoke "')[0]?.text).toBe('Smoke');
  });

  it('a stated word accounts for a request word in any spelling of the same thing', () => {
    const paths = requestWords('edit docs/a.md and src//b.ts in ./lib/ and out/');
    expect(unaccounted(paths, ['./docs/a.md/', 'src/b.ts', './/lib', 'out//'])).toEqual([]);
    expect(
      unaccounted(requestWords('edit docs/a.md and b.md'), ['src/a.md', 'docs-a.md', 'docs/a.md/b.md']),
    ).toEqual(['docs/a.md', 'b.md']);
    expect(unaccounted(requestWords('2 suites'), [' 2 '])).toEqual([]);
    // A quoted text or a name is accounted for by a stated phrase that contains it.
    expect(
      unaccounted(requestWords('a suite "Smoke" in project shop'), ['the smoke suite', 'shop project']),
    ).toEqual([]);
    expect(unaccounted(requestWords('a suite "Smoke"'), ['smok'])).toEqual(['Smoke']);
  });
});
