import { describe, expect, it } from 'vitest';
import { overCounts } from '../../../src/core/agent/summary-counts.js';

const item = (resource: string, type = 'suite') => ({
  target: resource,
  type,
  resource,
  via: 'x',
  evidenceSeq: 1,
});

describe('a summary may not count more items than distinct resources back', () => {
  it.each([
    [
      'Created 2 suites.',
      [item('/s/1'), item('/s/1')],
      ['the summary counts 2 suites, but 1 distinct one is backed by evidence'],
    ],
    [
      'Created two suites.',
      [item('/s/1')],
      ['the summary counts 2 suites, but 1 distinct one is backed by evidence'],
    ],
    [
      'Created fifteen suites.',
      [item('/s/1')],
      ['the summary counts 15 suites, but 1 distinct one is backed by evidence'],
    ],
    ['Created 2 suites.', [item('/s/1'), item('/s/2')], []],
    ['Created 2 suites with 3 tests each.', [item('/s/1'), item('/s/2'), item('/t/1', 'test')], []],
    [
      'Created 2 new suites.',
      [item('/s/1')],
      ['the summary counts 2 suites, but 1 distinct one is backed by evidence'],
    ],
    ['Took 3 steps.', [item('/s/1')], []],
    ['Created the suite.', [item('/s/1')], []],
  ])('%s', (summary, verified, problems) => {
    expect(overCounts(summary, verified)).toEqual(problems);
  });
});

describe('"a <type>" said of a thing made counts one', () => {
  it.each([
    [
      'Created a suite and a milestone for the launch.',
      [item('/s/1')],
      ['the summary counts 1 milestone, but none is backed by evidence'],
    ],
    [
      'Created 2 suites, a milestone and 3 tests.',
      [item('/s/1'), item('/s/2'), item('/t/1', 'test'), item('/t/2', 'test'), item('/t/3', 'test')],
      ['the summary counts 1 milestone, but none is backed by evidence'],
    ],
    ['Made a milestone.', [item('/s/1')], ['the summary counts 1 milestone, but none is backed by evidence']],
    [
      'Created 3 tests in a suite I found, for a milestone.',
      [item('/t/1', 'test'), item('/t/2', 'test'), item('/t/3', 'test')],
      [],
    ],
    ['Found a milestone and created a suite.', [item('/s/1')], []],
    ['Created a suite and a milestone.', [item('/s/1'), item('/m/1', 'milestone')], []],
  ])('%s', (summary, verified, problems) => {
    expect(overCounts(summary, verified, ['suite', 'test', 'milestone'])).toEqual(problems);
  });
});
