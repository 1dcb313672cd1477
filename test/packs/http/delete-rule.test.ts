import { afterEach, describe, expect, it } from 'vitest';
import { ToolRejectedError } from '../../../src/core/errors.js';
import { ApiClient, canonicalPath, listOf } from '../../../src/packs/http/client/api-client.js';
import { CookieJar } from '../../../src/packs/http/client/cookie-jar.js';
import { json, localServer } from './local-server.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An app that answers every POST with a new id, every DELETE with 204 and everything else with 200. */
async function app() {
  let next = 100;
  const server = await localServer((seen, res) => {
    if (seen.method === 'POST') json(res, 201, { id: String(++next) });
    else if (seen.method === 'DELETE') {
      res.writeHead(204);
      res.end();
    } else json(res, 200, { ok: true });
  });
  servers.push(server);
  return server;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolRejectedError);
  return error as ToolRejectedError;
}

describe('DELETE only a resource URL this run created — the whole path, not its last segment', () => {
  it('deletes what it created, and refuses the same id under another collection', async () => {
    const server = await app();
    const client = new ApiClient({ baseUrl: server.url });
    const created = await client.send({
      method: 'POST',
      path: '/api/alpha-shop/suites',
      body: { title: 'x' },
    });
    expect(created.ids).toEqual(['101']);
    const other = await refusal(client.send({ method: 'delete', path: '/api/beta-shop/suites/101' }));
    expect(other.code).toBe('DELETE_REFUSED');
    expect(other.message).toBe(
      'Refused: DELETE /api/beta-shop/suites/101 is not a resource this run created. Fisherman only deletes what it made (pass --allow-delete to override).',
    );
    await refusal(client.send({ method: 'DELETE', path: '/api/alpha-shop/suites' }));
    await refusal(client.send({ method: 'DELETE', path: '/api/alpha-shop/suites/101/tests' }));
    const removed = await client.send({ method: 'delete', path: '/api/alpha-shop/suites/101/?cascade=1' });
    expect(removed.status).toBe(204);
    expect(server.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual([
      'POST /api/alpha-shop/suites',
      'DELETE /api/alpha-shop/suites/101/?cascade=1',
    ]);
  });

  it('an id returned with characters a path must encode is remembered encoded', async () => {
    const server = await localServer((seen, res) =>
      seen.method === 'POST' ? json(res, 201, { id: 'a b' }) : json(res, 200, {}),
    );
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url });
    await client.send({ method: 'POST', path: '/notes', body: {} });
    expect((await client.send({ method: 'DELETE', path: '/notes/a%20b' })).ok).toBe(true);
  });

  it('a failed create, a read or an update remembers nothing deletable', async () => {
    const server = await localServer((seen, res) =>
      json(res, seen.url.startsWith('/bad') ? 400 : 200, { id: 7 }),
    );
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url });
    await client.send({ method: 'POST', path: '/bad', body: {} });
    await client.send({ method: 'GET', path: '/items' });
    await client.send({ method: 'PATCH', path: '/things', body: {} });
    await client.send({ method: 'PUT', path: '/others', body: {} });
    for (const path of ['/bad/7', '/items/7', '/things/7', '/others/7', '/others'])
      expect((await refusal(client.send({ method: 'DELETE', path }))).code).toBe('DELETE_REFUSED');
  });

  it('a PUT answered 201 created the resource at its path, so it may be deleted', async () => {
    const server = await localServer((seen, res) => json(res, seen.method === 'PUT' ? 201 : 204, {}));
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url });
    await client.send({ method: 'PUT', path: '/things/abc', body: { name: 'x' } });
    expect((await client.send({ method: 'DELETE', path: '/things/abc' })).status).toBe(204);
  });

  it('cleanup may delete the paths an earlier run created, spelled any canonical way', async () => {
    const server = await app();
    const client = new ApiClient({
      baseUrl: `${server.url}//`,
      created: ['/items/articles/1/', '/items/a%7Eb'],
    });
    expect((await client.send({ method: 'DELETE', path: '/items/articles/1' })).ok).toBe(true);
    expect((await client.send({ method: 'DELETE', path: '/items/a~b' })).ok).toBe(true);
    await refusal(client.send({ method: 'DELETE', path: '/items/articles/2' }));
  });

  it('--allow-delete lifts the rule', async () => {
    const server = await app();
    const client = new ApiClient({ baseUrl: server.url, allowDelete: true });
    expect((await client.send({ method: 'DELETE', path: '/anything/1' })).status).toBe(204);
  });
});

describe('the origin lock', () => {
  it('refuses another origin, or a scheme-relative URL, before any request leaves', async () => {
    const server = await app();
    const client = new ApiClient({ baseUrl: `${server.url}/api/` });
    expect(client.baseUrl).toBe(`${server.url}/api`);
    expect(client.origin).toBe(server.url);
    const other = await refusal(client.send({ method: 'GET', path: 'http://example.invalid/x?y=1' }));
    expect(other.code).toBe('ORIGIN_LOCKED');
    expect(other.message).toBe(
      `Refused: http://example.invalid is not the API origin ${server.url}. Requests only go to the API's own origin; pass a path such as /x.`,
    );
    const relative = await refusal(client.send({ method: 'GET', path: '//example.invalid/x' }));
    expect(relative.code).toBe('PATH_INVALID');
    const word = await refusal(client.send({ method: 'GET', path: 'items' }));
    expect(word.message).toBe('"items" is not a path: pass one starting with / (for example /api/items).');
    expect(server.seen).toEqual([]);
  });

  it('a path is sent under the base URL; a full URL on the same origin is sent as is, with the query added', async () => {
    const server = await app();
    const client = new ApiClient({ baseUrl: `${server.url}/api` });
    await client.send({ method: 'GET', path: '/items', query: { page: 2, all: true, q: 'a b' } });
    await client.send({ method: 'GET', path: `${server.url}/other?x=1` });
    expect(server.seen.map((seen) => seen.url)).toEqual(['/api/items?page=2&all=true&q=a+b', '/other?x=1']);
    expect(client.resolve('/x').href).toBe(`${server.url}/api/x`);
  });
});

describe('headers: capture auth < live session < configuration', () => {
  it('layers them, sends a body only where one belongs, and never sends a cookie without a session', async () => {
    const server = await app();
    const jar = new CookieJar();
    jar.store(['sid=abc; Path=/']);
    const client = new ApiClient({
      baseUrl: server.url,
      captureAuth: { authorization: 'Bearer captured', 'x-tenant': 'capture' },
      session: { jar, csrf: { header: 'x-csrf-token', token: 'tok' }, startedAt: '' },
      headers: { 'X-Tenant': 'configured' },
    });
    await client.send({ method: 'POST', path: '/items', body: { a: 1 } });
    await client.send({ method: 'GET', path: '/items', body: { ignored: true } });
    const [post, get] = server.seen;
    expect(post?.headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer captured',
      'x-tenant': 'configured',
      cookie: 'sid=abc',
      'x-csrf-token': 'tok',
    });
    expect(post?.body).toBe('{"a":1}');
    expect(get?.headers['content-type']).toBeUndefined();
    expect(get?.body).toBe('');
    const bare = new ApiClient({ baseUrl: server.url, session: { jar: new CookieJar(), startedAt: '' } });
    expect(bare.headersFor(new URL(`${server.url}/x`), false)).toEqual({ accept: 'application/json' });
  });
});

describe('canonical resource paths and lists', () => {
  it.each([
    ['/items/1/', '/items/1'],
    ['/items/1?x=1#y', '/items/1'],
    ['/items/1#y', '/items/1'],
    ['/', '/'],
    ['///', '/'],
    ['', '/'],
    ['/a%7Eb/c%2Fd', '/a~b/c%2Fd'],
    ['/a b', '/a%20b'],
    ['/bad%zz/x', '/bad%zz/x'],
  ])('%j → %j', (path, expected) => {
    expect(canonicalPath(path)).toBe(expected);
  });

  it('a list is a bare array or one wrapped in data, items or results; other values are not lists', () => {
    expect(listOf([{ id: 1 }, null, 3, 'x', { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(listOf({ data: [{ id: 1 }] })).toEqual([{ id: 1 }]);
    expect(listOf({ data: 'x', items: [{ id: 2 }] })).toEqual([{ id: 2 }]);
    expect(listOf({ results: [{ id: 3 }] })).toEqual([{ id: 3 }]);
    expect(listOf({ data: { id: 1 } })).toBeUndefined();
    expect(listOf('[]')).toBeUndefined();
    expect(listOf(null)).toBeUndefined();
  });
});
