import { describe, expect, it } from 'vitest';
import type { DataRequest } from '../../../src/agents/fisherman/parse-data-request.js';
import { requestProblems } from '../../../src/agents/fisherman/request-met.js';
import type { Effect } from '../../../src/core/effects.js';
import type { Scope } from '../../../src/packs/http/endpoints/scope.js';
import { httpRun } from './http-run.js';

const run = httpRun;

const everywhere: Scope = { path: '', fallback: false };
const oneSuiteOneTest: DataRequest = { count: 1, type: 'suites', children: { count: 1, type: 'tests' } };
const suite1: Partial<Effect> = { key: '/api/p/suites/1', id: '1', type: 'suite', observed: {} };
const testLinked = (links: Record<string, string>): Partial<Effect> => ({
  key: '/api/p/tests/5',
  id: '5',
  type: 'test',
  observed: { links },
});

describe('which link field names the parent', () => {
  it('`parent…Id` or `…parentId` fields other than exactly `parentId` do not name the parent', () => {
    for (const field of ['grandparentId', 'parentageId']) {
      const problems = requestProblems(
        oneSuiteOneTest,
        everywhere,
        run(suite1, testLinked({ [field]: '1' })),
      );
      expect(problems, field).toContain('test 5 is not linked to a suite this run created');
    }
    expect(requestProblems(oneSuiteOneTest, everywhere, run(suite1, testLinked({ parentId: '1' })))).toEqual(
      [],
    );
  });

  it('a field that only starts like `<type>Id` does not name the parent', () => {
    const problems = requestProblems(
      oneSuiteOneTest,
      everywhere,
      run(suite1, testLinked({ suiteIdentifier: '1' })),
    );
    expect(problems).toContain('test 5 is not linked to a suite this run created');
  });
});

describe('children are counted by their type', () => {
  it('other things the run created are not counted as children', () => {
    const tag: Partial<Effect> = { key: '/api/p/tags/9', id: '9', type: 'tag', observed: {} };
    expect(
      requestProblems(oneSuiteOneTest, everywhere, run(suite1, testLinked({ suiteId: '1' }), tag)),
    ).toEqual([]);
  });
});

describe('scope', () => {
  it('a scope is matched against the decoded path segments', () => {
    const scope: Scope = { path: '/projects/alpha shop', key: 'alpha shop', fallback: false };
    const inside: Partial<Effect> = {
      key: '/api/alpha%20shop/suites/1',
      id: '1',
      type: 'suite',
      observed: {},
    };
    expect(requestProblems({ count: 1, type: 'suites' }, scope, run(inside))).toEqual([]);
  });
});
