import { describe, expect, it } from 'vitest';
import { sameType, singular, typeWords } from '../../src/core/type-words.js';

describe('singular: a collection name as the word a person uses', () => {
  it.each([
    ['suites', 'suite'],
    ['categories', 'category'],
    ['stories', 'story'],
    ['boxes', 'box'],
    ['classes', 'class'],
    ['dishes', 'dish'],
    ['matches', 'match'],
    ['buzzes', 'buzz'],
    ['people', 'person'],
    ['children', 'child'],
    ['statuses', 'status'],
    ['analyses', 'analysis'],
    ['data', 'data'],
    ['media', 'media'],
    [' Suites ', 'suite'],
    ['TESTS', 'test'],
  ])('%s → %s', (word, expected) => {
    expect(singular(word)).toBe(expected);
  });

  it.each([
    ['suite'],
    ['class'],
    ['status'],
    ['analysis'],
    ['keys'.slice(0, -1)],
    // Words that merely contain a plural ending somewhere are left alone.
    ['fiesta'],
    ['chest'],
    ['boxer'],
  ])('a singular word stays: %s', (word) => {
    expect(singular(word)).toBe(word);
  });

  it('a vowel before "ies" is not the y-plural: "keys"-like words just lose the s', () => {
    expect(singular('keys')).toBe('key');
    expect(singular('toys')).toBe('toy');
  });
});

describe('typeWords: a type name as singular words', () => {
  it.each([
    ['test_cases', ['test', 'case']],
    ['User Stories', ['user', 'story']],
    ['testCases', ['test', 'case']],
    ['v2Items', ['v2', 'item']],
    ['test-cases', ['test', 'case']],
    ['test.cases', ['test', 'case']],
    ['api/tests', ['api', 'test']],
    ['  test   cases  ', ['test', 'case']],
    ['_tests_', ['test']],
    ['', []],
  ])('%j → %j', (name, words) => {
    expect(typeWords(name)).toEqual(words);
  });

  it('answers a name it has seen the same way again, and no caller can change that answer', () => {
    const first = typeWords('Test Suites');
    expect(() => (first as string[]).push('extra')).toThrow(TypeError);
    expect(typeWords('Test Suites')).toEqual(['test', 'suite']);
  });
});

describe('sameType: a claimed type names the actual one', () => {
  it.each([
    ['suite', 'suites'],
    ['test case', 'test_cases'],
    ['TestCase', 'test-cases'],
    ['test case', 'tests'],
    ['test_cases', 'test'],
    ['suite', 'test_suites'],
    ['case', 'test cases'],
  ])('a claimed %j is a %j', (a, b) => {
    expect(sameType(a, b)).toBe(true);
  });

  it.each([
    ['milestone', 'tests'],
    ['user story', 'test case'],
    ['test case', 'case test'],
    ['post', 'comments'],
    // A qualifier is not the thing.
    ['test', 'test_suites'],
    ['tests', 'test case'],
    ['', ''],
    ['__', ''],
    ['', 'tests'],
    ['tests', ''],
  ])('a claimed %j is not a %j', (a, b) => {
    expect(sameType(a, b)).toBe(false);
  });
});
