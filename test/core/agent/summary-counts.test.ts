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

// An app with `/users` and `/user-groups`: "Created 2 user groups" counted 2 users, none made,
// and the run that made exactly the 2 user groups asked for ended partial.
describe('a type of several words is counted as itself, not as its first word', () => {
  const groups = [item('/user-groups/1', 'user-group'), item('/user-groups/2', 'user-group')];
  const types = ['users', 'user-groups'];
  it.each([
    ['Created 2 user groups through the API.', groups, []],
    ['Created 2 user groups with 3 users each.', groups, []],
    ['Created 1 post and 2 user groups each.', groups, []],
    [
      'Created 3 user groups.',
      groups,
      ['the summary counts 3 user groups, but 2 distinct ones are backed by evidence'],
    ],
    ['Created 2 users.', groups, ['the summary counts 2 users, but none is backed by evidence']],
  ])('%s', (summary, verified, problems) => {
    expect(overCounts(summary, verified, types)).toEqual(problems);
  });
});
