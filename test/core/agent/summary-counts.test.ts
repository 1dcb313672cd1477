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
