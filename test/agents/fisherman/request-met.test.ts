import { describe, expect, it } from 'vitest';
import type { DataRequest } from '../../../src/agents/fisherman/parse-data-request.js';
import { requestProblems } from '../../../src/agents/fisherman/request-met.js';
import type { Effect } from '../../../src/core/effects.js';
import type { Scope } from '../../../src/packs/http/endpoints/scope.js';
import { httpRun } from './http-run.js';

const run = httpRun;

const suite = (id: string, extra: Partial<Effect> = {}): Partial<Effect> => ({
  key: `/api/alpha-shop/suites/${id}`,
  id,
  type: 'suite',
  observed: { parents: ['/api/alpha-shop'] },
  ...extra,
});
const test = (
  id: string,
  observed: Record<string, unknown>,
  key = `/api/alpha-shop/tests/${id}`,
): Partial<Effect> => ({
  key,
  id,
  type: 'test',
  observed,
});

const everywhere: Scope = { path: '', fallback: false };
const check = (request: DataRequest, context: ReturnType<typeof run>, scope = everywhere) =>
  requestProblems(request, scope, context);

describe('counts per type', () => {
  it('met: as many of the type as asked, whatever else was read or updated', () => {
    const context = run(
      suite('1'),
      suite('2'),
      { kind: 'read', key: '/api/alpha-shop/suites/3', id: '3', type: 'suite' },
      { kind: 'updated', ...suite('4') },
    );
    expect(check({ count: 2, type: 'suites' }, context)).toEqual([]);
  });

  it('too few or too many, in words', () => {
    expect(check({ count: 2, type: 'suites' }, run(suite('1')))).toEqual([
      'asked for 2 suites, this run created 1',
    ]);
    expect(check({ count: 1, type: 'suites' }, run(suite('1'), suite('2')))).toEqual([
      'asked for 1 suite, this run created 2',
    ]);
  });

  it('only HTTP creates of the requested type count; a create without a type is not one', () => {
    const context = run(
      suite('1'),
      { space: 'file', key: 'suites/2', id: '2', type: 'suite' },
      { key: '/api/alpha-shop/things/3', id: '3' },
      { key: '/api/alpha-shop/tests/4', id: '4', type: 'test' },
      { ...suite('5') },
      { kind: 'deleted', key: '/api/alpha-shop/suites/5' },
    );
    expect(check({ count: 2, type: 'suite' }, context)).toEqual(['asked for 2 suite, this run created 1']);
  });
});

describe('children are linked to a parent this run created', () => {
  const request: DataRequest = { count: 2, type: 'suites', children: { count: 2, type: 'tests' } };

  it('met: by the path they were created under, or by a field naming the parent', () => {
    const context = run(
      suite('101'),
      suite('102'),
      test('1', { parents: ['/api/alpha-shop', '/api/alpha-shop/suites/101'] }),
      test('2', { parents: ['/api/alpha-shop'], links: { suiteId: '101' } }),
      test('3', { links: { ownerId: '101', suite_id: '102' } }),
      test('4', { links: { 'suite-ID': '102' } }),
    );
    expect(check(request, context)).toEqual([]);
  });

  it.each([[{ parentId: '101' }], [{ parent: '101' }], [{ suite: '101' }], [{ test_suite_id: '101' }]])(
    'a link field %j names the parent',
    (links) => {
      const context = run(suite('101'), test('1', { links }));
      expect(check({ count: 1, type: 'suite', children: { count: 1, type: 'test' } }, context)).toEqual([]);
    },
  );

  it('a field naming something else, or a parent this run did not create, is not a link', () => {
    const context = run(
      suite('101'),
      test('1', { links: { ownerId: '101' } }),
      test('2', { links: { suiteId: '999', projectId: '101' } }),
      test('3', { parents: ['/api/alpha-shop', '/api/alpha-shop/suites/55'] }),
      test('4', { parents: ['/api/alpha-shop'] }),
    );
    expect(check({ count: 1, type: 'suite', children: { count: 4, type: 'test' } }, context)).toEqual([
      'test 1 is not linked to a suite this run created',
      'test 2 is not linked to a suite this run created (it points at 999)',
      'test 3 is not linked to a suite this run created (it points at /api/alpha-shop/suites/55)',
      'test 4 is not linked to a suite this run created',
      'suite 101 has 0 of the 4 test asked for',
    ]);
  });

  // Beside a `suiteId`, a `parentId` is the test's parent test: a test filed under suite 55
  // whose parentId held suite 101's id was counted as linked to suite 101.
  it('a parentId is no link when a field named after the parent type points elsewhere', () => {
    const context = run(suite('101'), test('1', { links: { parentId: '101', suiteId: '55' } }));
    expect(check({ count: 1, type: 'suite', children: { count: 1, type: 'test' } }, context)).toEqual([
      'test 1 is not linked to a suite this run created (it points at 55)',
      'suite 101 has 0 of the 1 test asked for',
    ]);
  });

  it('a child under a parent path with an encoded type is still claimed by that path', () => {
    const context = run(suite('101'), test('1', { parents: ['/api/my%20suites/7'] }));
    expect(check({ count: 1, type: 'suite', children: { count: 1, type: 'test' } }, context)).toEqual([
      'test 1 is not linked to a suite this run created (it points at /api/my%20suites/7)',
      'suite 101 has 0 of the 1 test asked for',
    ]);
  });

  it('wrong child counts, overall and per parent', () => {
    const context = run(
      suite('101'),
      suite('102'),
      test('1', { links: { suiteId: '101' } }),
      test('2', { links: { suiteId: '101' } }),
      test('3', { links: { suiteId: '101' } }),
    );
    expect(check(request, context)).toEqual([
      'asked for 4 tests (2 per suite), this run created 3',
      'suite 101 has 3 of the 2 tests asked for',
      'suite 102 has 0 of the 2 tests asked for',
    ]);
    expect(
      check({ count: 1, type: 'suites', children: { count: 1, type: 'tests' } }, run(suite('101'))),
    ).toEqual([
      'asked for 1 test (1 per suite), this run created 0',
      'suite 101 has 0 of the 1 tests asked for',
    ]);
  });

  it('the parents are not their own children', () => {
    const context = run(
      suite('101'),
      suite('102', { observed: { parents: ['/api/alpha-shop/suites/101'] } }),
    );
    expect(check({ count: 2, type: 'suite', children: { count: 0, type: 'suite' } }, context)).toEqual([]);
  });

  it('a child without a type or id is named as an item by its key', () => {
    const context = run(suite('101'), { key: '/api/alpha-shop/tests/x', type: 'test', observed: {} });
    expect(check({ count: 1, type: 'suite', children: { count: 1, type: 'test' } }, context)).toEqual([
      'test /api/alpha-shop/tests/x is not linked to a suite this run created',
      'suite 101 has 0 of the 1 test asked for',
    ]);
  });
});

describe('everything inside the requested scope', () => {
  const scope: Scope = { path: '/api/alpha-shop', key: 'alpha-shop', fallback: false };

  it('a create outside the scope is named with its path', () => {
    const context = run(suite('1'), { key: '/api/beta/suites/2', id: '2', type: 'suite' }, { key: '/x/3' });
    expect(check({ count: 2, type: 'suite' }, context, scope)).toEqual([
      'suite 2 (/api/beta/suites/2) is outside the requested scope /api/alpha-shop',
      'item /x/3 (/x/3) is outside the requested scope /api/alpha-shop',
    ]);
  });

  it('the scope is matched on whole, decoded segments', () => {
    const spaced: Scope = { path: '/api/alpha shop', key: 'alpha shop', fallback: false };
    const context = run(
      { key: '/api/alpha%20shop/suites/1', id: '1', type: 'suite' },
      { key: '/api/alpha-shopping/suites/2', id: '2', type: 'suite' },
    );
    expect(check({ count: 2, type: 'suite' }, context, spaced)).toEqual([
      'suite 2 (/api/alpha-shopping/suites/2) is outside the requested scope /api/alpha shop',
    ]);
  });

  it('a fallback scope, or none, keeps every write', () => {
    const context = run(suite('1'), { key: '/api/beta/suites/2', id: '2', type: 'suite' });
    expect(check({ count: 2, type: 'suite' }, context, { ...scope, fallback: true })).toEqual([]);
    expect(check({ count: 2, type: 'suite' }, context, { path: '/api/alpha-shop', fallback: false })).toEqual(
      [],
    );
  });
});
