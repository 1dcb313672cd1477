import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../../src/packs/http/client/api-client.js';
import { httpEffects } from '../../../src/packs/http/tools/http-effects.js';

/** Digits, the project slug and `demo-tests` (a slug that looks plural) are ids. */
const normalize = (path: string) =>
  path
    .split('/')
    .map((segment) =>
      /^\d+$/.test(segment) || ['alpha-shop', 'demo-tests'].includes(segment) ? '{id}' : segment,
    )
    .join('/');

function response(
  method: string,
  path: string,
  status: number,
  body: unknown,
  ids: string[] = [],
): ApiResponse {
  return {
    method,
    path,
    url: `http://127.0.0.1${path}`,
    status,
    ok: status >= 200 && status < 300,
    ids,
    body,
    durationMs: 1,
  };
}

const effectsOf = (res: ApiResponse, sent?: unknown) => httpEffects(res, sent, normalize);
const only = (res: ApiResponse, sent?: unknown) => {
  const effects = effectsOf(res, sent);
  expect(effects).toHaveLength(1);
  return effects[0];
};

describe('collections and actions', () => {
  it('a plural collection is a collection even without 201, when the new id equals a parent id', () => {
    // SQL apps number every table from 1: suite 1 of project 1 is a new suite, not project 1.
    expect(only(response('POST', '/api/projects/1/suites', 200, { id: 1 }, ['1']))).toMatchObject({
      kind: 'created',
      key: '/api/projects/1/suites/1',
      id: '1',
      type: 'suite',
    });
  });

  it('201 Created makes a collection of a noun that is not plural', () => {
    expect(only(response('POST', '/api/projects/1/staff', 201, { id: 1 }, ['1']))).toMatchObject({
      kind: 'created',
      key: '/api/projects/1/staff/1',
    });
  });

  it('a verb returning the id it acts on updates that resource, even first in the path', () => {
    expect(
      only(response('POST', '/api/alpha-shop/suites/101/move', 200, { id: 101 }, ['101'])),
    ).toMatchObject({
      kind: 'updated',
      key: '/api/alpha-shop/suites/101',
    });
    expect(only(response('POST', '/7/archive', 200, { id: 7 }, ['7']))).toMatchObject({
      kind: 'updated',
      key: '/7',
      id: '7',
    });
    expect(only(response('POST', '/7/archive', 200, {}))).toMatchObject({
      kind: 'updated',
      key: '/7',
      id: '7',
    });
  });

  it('an action returning a new id made something new, not an update of the path', () => {
    expect(
      only(response('POST', '/api/alpha-shop/suites/101/copy', 200, { id: 202 }, ['202'])),
    ).toMatchObject({
      kind: 'created',
      id: '202',
    });
  });

  it('a POST to an item path (its last segment an id) updates that item', () => {
    expect(only(response('POST', '/api/alpha-shop/suites/101', 200, {}))).toMatchObject({
      kind: 'updated',
      key: '/api/alpha-shop/suites/101',
    });
    // An id that happens to look plural is still an id, not a collection.
    expect(only(response('POST', '/api/projects/demo-tests', 200, {}))).toMatchObject({
      kind: 'updated',
      key: '/api/projects/demo-tests',
      id: 'demo-tests',
    });
  });

  it('a POST with no id to a plural collection changes nothing known', () => {
    expect(effectsOf(response('POST', '/api/alpha-shop/suites', 200, {}))).toEqual([]);
  });
});

describe('what is observed', () => {
  it('label, subject and summary are titles too', () => {
    for (const field of ['label', 'subject', 'summary']) {
      expect(only(response('PUT', '/notes/3', 200, { [field]: `A ${field}` }))?.observed?.title, field).toBe(
        `A ${field}`,
      );
    }
  });

  it('no title observed means no title field at all (a later update must not erase an earlier title)', () => {
    const effect = only(response('PATCH', '/notes/3', 200, { done: true }));
    expect(effect?.observed).toStrictEqual({ status: 200, parents: [] });
    expect('title' in (effect?.observed ?? {})).toBe(false);
  });

  it('a body whose `data` is not an object is read as it is', () => {
    const effect = only(response('PUT', '/notes/3', 200, { title: 'Kept', data: 'raw text', ownerId: 4 }));
    expect(effect?.observed).toMatchObject({ title: 'Kept', links: { ownerId: '4' } });
  });

  it('a text body names no title and no links', () => {
    expect(only(response('PUT', '/notes/3', 200, '42'), '17')?.observed).toStrictEqual({
      status: 200,
      parents: [],
    });
  });

  it('link fields hold strings or numbers: null, booleans and objects without an id link nothing', () => {
    const effect = only(
      response('PUT', '/notes/3', 200, {
        ownerId: null,
        parentId: { name: 'x' },
        suite_id: true,
        tags: [{ id: 4 }],
      }),
    );
    expect(effect?.observed).toStrictEqual({ status: 200, parents: [] });
  });

  it('a relation answered embedded links by its own id ("post": {"id": 1, …})', () => {
    const effect = only(
      response('PUT', '/notes/3', 200, {
        post: { id: 1, title: 'x' },
        author: { _id: 'u7' },
        parentId: { id: 2 },
      }),
    );
    expect(effect?.observed?.links).toStrictEqual({ post: '1', author: 'u7', parentId: '2' });
  });

  it('a field named like an id only at its start, or only a separator before `id`, is judged by its value', () => {
    const effect = only(
      response('PUT', '/notes/3', 200, {
        ideaId: 5,
        identifier: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
        paidAmount: 'twelve',
        '-id': 'x7',
      }),
    );
    expect(effect?.observed?.links).toStrictEqual({
      ideaId: '5',
      identifier: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    });
  });

  it('a read of a path that is not an item carries no id', () => {
    const effect = only(response('GET', '/api/stats', 200, { total: 'many' }));
    expect(effect).toStrictEqual({
      kind: 'read',
      space: 'http',
      key: '/api/stats',
      type: 'stat',
      observed: { status: 200 },
    });
  });
});
