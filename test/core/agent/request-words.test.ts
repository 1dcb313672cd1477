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
    expect(words('2 suites and a suite', ['suites', 'suites'])).toEqual(['number:2', 'type:suites']);
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
