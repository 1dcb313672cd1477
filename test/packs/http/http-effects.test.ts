import { describe, expect, it } from 'vitest';
import type { ApiResponse, Reconciled } from '../../../src/packs/http/client/api-client.js';
import { httpEffects } from '../../../src/packs/http/tools/http-effects.js';

/** Digits and the project slug are ids, as the learned normalizer would say for the demo app. */
const normalize = (path: string) =>
  path
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) || segment === 'alpha-shop' ? '{id}' : segment))
    .join('/');

function response(
  method: string,
  path: string,
  status: number,
  body: unknown,
  more: Partial<ApiResponse> = {},
): ApiResponse {
  return {
    method,
    path,
    url: `http://127.0.0.1${path}`,
    status,
    ok: status >= 200 && status < 300,
    ids: [],
    body,
    durationMs: 1,
    ...more,
  };
}

const effectsOf = (res: ApiResponse, sent?: unknown) => httpEffects(res, sent, normalize);

describe('a create is the collection plus the id the server returned', () => {
  it('POST to a project collection creates suite 101 under it, with the server’s title and links', () => {
    const res = response(
      'POST',
      '/api/alpha-shop/suites',
      201,
      { data: { id: 101, title: 'Smoke', projectId: 'alpha-shop' } },
      { ids: ['101'] },
    );
    expect(effectsOf(res, { title: 'sent', ownerId: 3 })).toEqual([
      {
        kind: 'created',
        space: 'http',
        key: '/api/alpha-shop/suites/101',
        id: '101',
        type: 'suite',
        observed: {
          status: 201,
          title: 'Smoke',
          // The ownerId Tally sent is not in the answer: only what the server said links.
          links: { projectId: 'alpha-shop' },
          parents: ['/api/alpha-shop'],
        },
      },
    ]);
  });

  // A link the server did not answer with is not observed: an app that drops an unknown
  // `parent` field would otherwise count as linked by what Tally sent.
  it('the title falls back to what was sent; links are the server’s alone', () => {
    const res = response(
      'POST',
      '/suites/101/tests',
      201,
      { id: 7, suite_id: 101, status: 'open', label: 5 },
      { ids: ['7'] },
    );
    expect(
      effectsOf(res, {
        name: 'Login works',
        suite_id: 999,
        id: 1,
        _id: 2,
        UUID: 'x',
        parent: 123,
        meta: { a: 1 },
      }),
    ).toEqual([
      {
        kind: 'created',
        space: 'http',
        key: '/suites/101/tests/7',
        id: '7',
        type: 'test',
        observed: {
          status: 201,
          title: 'Login works',
          links: { suite_id: '101', label: '5' },
          parents: ['/suites/101'],
        },
      },
    ]);
  });

  it('title fields are tried in order, the response before the request', () => {
    const res = response('POST', '/notes', 201, { summary: 'S', heading: 'H' }, { ids: ['a b'] });
    expect(effectsOf(res, { title: 'T' })[0]).toMatchObject({
      key: '/notes/a%20b',
      id: 'a b',
      observed: { title: 'H' },
    });
    const sentOnly = response('POST', '/notes', 201, 'created', { ids: ['1'] });
    expect(effectsOf(sentOnly, { subject: 'Sub', name: 'N' })[0]?.observed).toEqual({
      status: 201,
      title: 'N',
      parents: [],
    });
    expect(effectsOf(sentOnly, [{ title: 'in a list' }])[0]?.observed).toEqual({ status: 201, parents: [] });
  });

  it('POST returning the id of a resource already in the path is an action on it', () => {
    const res = response(
      'POST',
      '/api/alpha-shop/suites/101/move',
      200,
      { id: 101, title: 'Moved' },
      { ids: ['101'] },
    );
    expect(effectsOf(res, { to: 'x' })).toEqual([
      {
        kind: 'updated',
        space: 'http',
        key: '/api/alpha-shop/suites/101',
        id: '101',
        type: 'suite',
        observed: { status: 200, title: 'Moved' },
      },
    ]);
  });

  it('POST without an id under an id updates the resource it acts on; with no id anywhere, nothing', () => {
    const res = response('POST', '/api/alpha-shop/suites/101/move', 204, '');
    expect(effectsOf(res, { title: 'Sent title' })).toEqual([
      {
        kind: 'updated',
        space: 'http',
        key: '/api/alpha-shop/suites/101',
        id: '101',
        type: 'suite',
        observed: { status: 204, title: 'Sent title' },
      },
    ]);
    expect(effectsOf(response('POST', '/login', 200, { ok: true }))).toEqual([]);
  });

  it('a failed or redirected exchange has no effects', () => {
    expect(effectsOf(response('POST', '/suites', 500, { id: 1 }, { ids: ['1'] }))).toEqual([]);
    expect(effectsOf(response('DELETE', '/suites/1', 302, ''))).toEqual([]);
  });
});

describe('updates, deletes and other methods', () => {
  it('PUT and PATCH update the resource at the path; PUT answered 201 created it', () => {
    const put = effectsOf(response('PUT', '/api/alpha-shop/suites/101/', 200, { title: 'New' }));
    expect(put).toEqual([
      {
        kind: 'updated',
        space: 'http',
        key: '/api/alpha-shop/suites/101',
        id: '101',
        type: 'suite',
        observed: { status: 200, title: 'New', parents: ['/api/alpha-shop'] },
      },
    ]);
    expect(effectsOf(response('PUT', '/suites/5', 201, {}))[0]).toMatchObject({
      kind: 'created',
      key: '/suites/5',
    });
    expect(effectsOf(response('PATCH', '/suites/5', 201, {}))[0]).toMatchObject({
      kind: 'updated',
      key: '/suites/5',
    });
  });

  it('DELETE deletes the resource at the whole path', () => {
    expect(effectsOf(response('DELETE', '/api/alpha-shop/suites/101?force=1', 204, ''))).toEqual([
      {
        kind: 'deleted',
        space: 'http',
        key: '/api/alpha-shop/suites/101',
        id: '101',
        type: 'suite',
        observed: { status: 204 },
      },
    ]);
  });

  it('a path of ids only has no type; a literal last segment has no id', () => {
    expect(effectsOf(response('DELETE', '/101', 200, ''))).toEqual([
      { kind: 'deleted', space: 'http', key: '/101', id: '101', observed: { status: 200 } },
    ]);
    expect(effectsOf(response('PATCH', '/settings', 200, ''))).toEqual([
      {
        kind: 'updated',
        space: 'http',
        key: '/settings',
        type: 'setting',
        observed: { status: 200, parents: [] },
      },
    ]);
    expect(effectsOf(response('DELETE', '/test%20cases/5', 200, ''))[0]).toMatchObject({
      type: 'test case',
      id: '5',
    });
  });

  it('other methods change nothing', () => {
    expect(effectsOf(response('HEAD', '/suites/1', 200, ''))).toEqual([]);
    expect(effectsOf(response('OPTIONS', '/suites', 204, ''))).toEqual([]);
  });
});

describe('a read reads the item, or each listed item', () => {
  it('GET of an item reads it, with what the server says about it', () => {
    expect(
      effectsOf(
        response('GET', '/suites/101', 200, { data: { id: 101, name: 'Smoke', projectId: 'alpha-shop' } }),
      ),
    ).toEqual([
      {
        kind: 'read',
        space: 'http',
        key: '/suites/101',
        id: '101',
        type: 'suite',
        observed: { status: 200, title: 'Smoke', links: { projectId: 'alpha-shop' } },
      },
    ]);
  });

  it('GET of a list reads each listed item that has an id, bare or wrapped', () => {
    const bare = effectsOf(
      response('GET', '/suites', 200, [{ id: 1, title: 'A' }, { title: 'no id' }, { _id: 'b2' }]),
    );
    expect(bare).toEqual([
      {
        kind: 'read',
        space: 'http',
        key: '/suites/1',
        id: '1',
        type: 'suite',
        observed: { status: 200, title: 'A' },
      },
      { kind: 'read', space: 'http', key: '/suites/b2', id: 'b2', type: 'suite', observed: { status: 200 } },
    ]);
    const wrapped = effectsOf(response('GET', '/api/alpha-shop/tests', 200, { items: [{ uuid: 'a/b' }] }));
    expect(wrapped.map((effect) => [effect.key, effect.id])).toEqual([
      ['/api/alpha-shop/tests/a%2Fb', 'a/b'],
    ]);
  });

  it('reads at most 500 listed items', () => {
    const list = Array.from({ length: 501 }, (_, index) => ({ id: index + 1 }));
    const reads = effectsOf(response('GET', '/suites', 200, list));
    expect(reads).toHaveLength(500);
    expect(reads.at(-1)?.key).toBe('/suites/500');
  });

  it('a list returned at an item path is a read of that item', () => {
    expect(effectsOf(response('GET', '/suites/101', 200, [{ id: 1 }]))).toEqual([
      {
        kind: 'read',
        space: 'http',
        key: '/suites/101',
        id: '101',
        type: 'suite',
        observed: { status: 200 },
      },
    ]);
  });

  it('a lost create found again by a list read is this run’s create, not a read', () => {
    const lost: Reconciled = {
      path: '/api/alpha-shop/suites/abc',
      id: 'abc',
      lostVia: 'POST /api/alpha-shop/suites → 502',
      lost: {
        collection: '/api/alpha-shop/suites',
        requestPath: '/api/alpha-shop/suites?x=1',
        body: { title: 'Smoke [run-1]' },
        marked: { title: 'Smoke [run-1]' },
        via: 'POST /api/alpha-shop/suites → 502',
        why: 'response lost',
      },
      item: { id: 'abc', title: 'Smoke [run-1]' },
    };
    const res = response(
      'GET',
      '/api/alpha-shop/suites',
      200,
      [{ id: 'abc', title: 'Smoke [run-1]' }, { id: 7 }],
      {
        reconciled: [lost],
      },
    );
    expect(effectsOf(res)).toEqual([
      {
        kind: 'created',
        space: 'http',
        key: '/api/alpha-shop/suites/abc',
        id: 'abc',
        type: 'suite',
        observed: { status: 200, title: 'Smoke [run-1]', parents: ['/api/alpha-shop'] },
        reconciledFrom: 'POST /api/alpha-shop/suites → 502 (response lost)',
        recovers: { tool: 'request', intent: 'POST /api/alpha-shop/suites "Smoke [run-1]"' },
      },
      {
        kind: 'read',
        space: 'http',
        key: '/api/alpha-shop/suites/7',
        id: '7',
        type: 'suite',
        observed: { status: 200 },
      },
    ]);
  });

  it('a lost create found by reading its own item path is only the create', () => {
    const lost: Reconciled = {
      path: '/suites/9',
      id: '9',
      lostVia: 'POST /suites → no response',
      lost: {
        collection: '/suites',
        requestPath: '/suites',
        body: {},
        marked: {},
        via: 'POST /suites → no response',
        why: 'response lost',
      },
      item: { id: 9 },
    };
    const effects = effectsOf(response('GET', '/suites/9', 200, { id: 9 }, { reconciled: [lost] }));
    expect(effects.map((effect) => [effect.kind, effect.key])).toEqual([['created', '/suites/9']]);
    const other = effectsOf(response('GET', '/suites/8', 200, { id: 8 }, { reconciled: [lost] }));
    expect(other.map((effect) => [effect.kind, effect.key])).toEqual([
      ['created', '/suites/9'],
      ['read', '/suites/8'],
    ]);
  });
});
