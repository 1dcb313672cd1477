import { describe, expect, it } from 'vitest';
import { sameType, singular } from '../../src/core/type-words.js';

describe('every listed word is singularized as listed', () => {
  it('plurals of words whose singular ends in -ie keep the -ie', () => {
    for (const word of [
      'movie',
      'cookie',
      'zombie',
      'selfie',
      'rookie',
      'hippie',
      'calorie',
      'genie',
      'prairie',
      'sortie',
      'smoothie',
      'brownie',
      'goalie',
      'newbie',
      'freebie',
      'bookie',
      'pie',
      'tie',
      'lie',
      'die',
      'auntie',
      'eyrie',
      'pixie',
      'hoodie',
      'techie',
      'foodie',
      'birdie',
      'cutie',
      'veggie',
      'budgie',
    ]) {
      expect(singular(`${word}s`), word).toBe(word);
    }
  });

  it('words the same in both numbers stay as they are', () => {
    for (const word of ['series', 'species', 'news']) expect(singular(word), word).toBe(word);
  });

  it('a generic head noun names the type before it', () => {
    for (const head of ['case', 'item', 'entry', 'record', 'object', 'instance', 'thing', 'row']) {
      expect(sameType(`test ${head}`, 'tests'), head).toBe(true);
    }
    expect(sameType('test suite', 'tests')).toBe(false);
  });
});

describe('edges of singular and sameType', () => {
  it('a singular word that is an -ie word plus a letter is left alone', () => {
    for (const word of ['pier', 'tier', 'lied']) expect(singular(word), word).toBe(word);
  });

  it('two empty type names are not the same type', () => {
    expect(sameType('', '')).toBe(false);
    expect(sameType('--', '_')).toBe(false);
  });

  it('head nouns: a test suite is a suite; a big test case is a test; a suite is a shop test suite', () => {
    expect(sameType('test suite', 'suites')).toBe(true);
    expect(sameType('big test case', 'tests')).toBe(true);
    expect(sameType('suite', 'shop_test_suites')).toBe(true);
  });
});
