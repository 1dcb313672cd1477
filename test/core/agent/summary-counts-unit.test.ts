import { describe, expect, it } from 'vitest';
import type { VerifiedItem } from '../../../src/core/agent/ending.js';
import { overCounts } from '../../../src/core/agent/summary-counts.js';

const item = (target: string, type: string | undefined, resource?: string): VerifiedItem => ({
  target,
  ...(type === undefined ? {} : { type }),
  ...(resource === undefined ? {} : { resource }),
  via: 'POST /suites → 201',
  evidenceSeq: 1,
});
const oneSuite = [item('1', 'suite')];

describe('a summary may not count more than the distinct resources behind it', () => {
  it.each([
    ['two', 2],
    ['three', 3],
    ['four', 4],
    ['five', 5],
    ['six', 6],
    ['seven', 7],
    ['eight', 8],
    ['nine', 9],
    ['ten', 10],
    ['eleven', 11],
    ['twelve', 12],
    ['twenty', 20],
    ['fifty', 50],
    ['hundred', 100],
    ['2', 2],
    ['12', 12],
    ['100000', 100000],
  ])('"Created %s suites" over one suite', (said, count) => {
    expect(overCounts(`Created ${said} suites.`, oneSuite)).toEqual([
      `the summary counts ${count} suites, but 1 distinct one is backed by evidence`,
    ]);
  });

  it('counts in any case, and "new" between the number and the type', () => {
    expect(overCounts('Created Two Suites', oneSuite)).toEqual([
      'the summary counts 2 Suites, but 1 distinct one is backed by evidence',
    ]);
    expect(overCounts('created 3 new suites', oneSuite)).toEqual([
      'the summary counts 3 suites, but 1 distinct one is backed by evidence',
    ]);
  });

  it('a resource claimed twice is one; several distinct ones are named as "ones"', () => {
    const twice = [item('1', 'suite', 'suite:1'), item('one', 'suite', 'suite:1')];
    expect(overCounts('Created 2 suites', twice)).toEqual([
      'the summary counts 2 suites, but 1 distinct one is backed by evidence',
    ]);
    const two = [item('1', 'suite'), item('2', 'suite')];
    expect(overCounts('Created 3 suites', two)).toEqual([
      'the summary counts 3 suites, but 2 distinct ones are backed by evidence',
    ]);
    expect(overCounts('Created 2 suites', two)).toEqual([]);
    expect(overCounts('Created one suite', oneSuite)).toEqual([]);
  });

  it('however the words are spaced', () => {
    expect(overCounts('Created 2  suites', oneSuite)).toEqual([
      'the summary counts 2 suites, but 1 distinct one is backed by evidence',
    ]);
    expect(overCounts('Created 2 new  suites', oneSuite)).toEqual([
      'the summary counts 2 suites, but 1 distinct one is backed by evidence',
    ]);
  });

  it.each([
    'each',
    'per',
    'apiece',
    'in each',
    'under each',
    'for each',
    ' each',
    'in  each',
    'under  each',
    'for  each',
  ])('a per-parent count ("3 tests %s suite") is not a total', (each) => {
    expect(overCounts(`Created 3 tests ${each} suite`, [item('t1', 'test')])).toEqual([]);
  });

  it('only types some verified item has are judged; words with no count are not counts', () => {
    expect(overCounts('Created 5 suites', [item('t1', 'test')])).toEqual([]);
    expect(overCounts('Created 5 suites', [item('1', undefined)])).toEqual([]);
    expect(overCounts('Created 5 x', [item('1', 'x')])).toEqual([]);
    expect(overCounts('Created suites', oneSuite)).toEqual([]);
    expect(overCounts('Created 1234567 suites', oneSuite)).toEqual([]);
  });

  it('a type the run knows is judged with nothing of it verified: "with 5 tests" backed by none', () => {
    const known = ['suite', 'tests', 'milestone'];
    expect(overCounts('Created 1 suite with 5 tests and 2 milestones.', oneSuite, known)).toEqual([
      'the summary counts 5 tests, but none is backed by evidence',
      'the summary counts 2 milestones, but none is backed by evidence',
    ]);
    // Not a known type: not judged; zero is never an over-count.
    expect(overCounts('Created 1 suite in 3 seconds with 2 retries.', oneSuite, known)).toEqual([]);
    expect(overCounts('Created 1 suite and 0 tests.', oneSuite, known)).toEqual([]);
  });

  it('a count of what the run read is not a claim of what it made', () => {
    const known = ['project', 'suite'];
    for (const summary of [
      'Found 3 projects, then created 1 suite.',
      'Listed the 3 projects and created 1 suite.',
      'There were 4 suites already; created 1 suite.',
      'Looked up 2 existing suites and created 1 suite.',
    ])
      expect(overCounts(summary, oneSuite, known), summary).toEqual([]);
    expect(overCounts('Created 3 projects and 1 suite.', oneSuite, known)).toEqual([
      'the summary counts 3 projects, but none is backed by evidence',
    ]);
  });
});
