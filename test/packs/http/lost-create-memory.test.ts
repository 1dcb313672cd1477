import { afterEach, describe, expect, it } from 'vitest';
import { TallyError } from '../../../src/core/errors.js';
import { ApiClient } from '../../../src/packs/http/client/api-client.js';
import { json, localServer } from './local-server.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const MARK = '[run-7]';

/** An app whose POST makes the item and then answers 502 (the response is lost); GET lists what it has. */
async function lossyApp(options: { wrap?: 'data' } = {}) {
  const items: Record<string, unknown>[] = [];
  const server = await localServer((seen, res) => {
    if (seen.method === 'POST') {
      const body = JSON.parse(seen.body || '{}') as Record<string, unknown>;
      items.push({ id: items.length + 1, ...body });
      json(res, 502, { message: 'bad gateway' });
    } else if (seen.method === 'GET') {
      const match = /\/(\d+)$/.exec(seen.url);
      if (match) json(res, 200, { data: items[Number(match[1]) - 1] });
      else json(res, 200, options.wrap ? { data: items } : items);
    } else json(res, 204, {});
  });
  servers.push(server);
  return { server, items };
}

describe('a create whose response was lost is remembered, and found again by a read', () => {
  it('a list read finds the item carrying the marked title; it can then be deleted', async () => {
    const { server } = await lossyApp({ wrap: 'data' });
    const client = new ApiClient({ baseUrl: server.url, marker: MARK });
    expect(client.marker).toBe(MARK);
    const lost = await client.send({
      method: 'POST',
      path: '/suites?x=1',
      body: { title: `Smoke ${MARK}`, size: 3 },
    });
    expect(lost).toMatchObject({ ok: false, status: 502, category: 'server', ids: [] });
    const read = await client.send({ method: 'GET', path: '/suites' });
    expect(read.reconciled).toEqual([
      {
        path: '/suites/1',
        id: '1',
        lostVia: 'POST /suites → 502',
        lost: {
          collection: '/suites',
          requestPath: '/suites?x=1',
          body: { title: `Smoke ${MARK}`, size: 3 },
          marked: { title: `Smoke ${MARK}` },
          via: 'POST /suites → 502',
          why: 'response lost',
        },
        item: { id: 1, title: `Smoke ${MARK}`, size: 3 },
      },
    ]);
    // Found once: a second read finds nothing new.
    expect((await client.send({ method: 'GET', path: '/suites' })).reconciled).toBeUndefined();
    expect((await client.send({ method: 'DELETE', path: '/suites/1' })).ok).toBe(true);
  });

  it('a read of the item itself finds it, unwrapping data', async () => {
    const { server } = await lossyApp();
    const client = new ApiClient({ baseUrl: server.url, marker: MARK });
    await client.send({ method: 'POST', path: '/suites', body: { title: `A ${MARK}`, note: `n ${MARK}` } });
    const read = await client.send({ method: 'GET', path: '/suites/1' });
    expect(read.reconciled?.map((found) => [found.path, found.id, found.item])).toEqual([
      ['/suites/1', '1', { id: 1, title: `A ${MARK}`, note: `n ${MARK}` }],
    ]);
  });

  it('every marked field must match; an item without an id, or a read elsewhere, finds nothing', async () => {
    const server = await localServer((seen, res) => {
      if (seen.method === 'POST') return json(res, 500, {});
      if (seen.url === '/suites')
        return json(res, 200, [
          { id: 1, title: `A ${MARK}`, note: 'other' },
          { title: `A ${MARK}`, note: `n ${MARK}` },
        ]);
      if (seen.url === '/suitesX') return json(res, 200, [{ id: 2, title: `A ${MARK}`, note: `n ${MARK}` }]);
      return json(res, 404, {});
    });
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url, marker: MARK });
    await client.send({ method: 'POST', path: '/suites', body: { title: `A ${MARK}`, note: `n ${MARK}` } });
    expect((await client.send({ method: 'GET', path: '/suites' })).reconciled).toBeUndefined();
    expect((await client.send({ method: 'GET', path: '/suitesX' })).reconciled).toBeUndefined();
    expect((await client.send({ method: 'GET', path: '/nothing' })).reconciled).toBeUndefined();
    await expect(client.send({ method: 'DELETE', path: '/suitesX/2' })).rejects.toThrow(
      /DELETE \/suitesX\/2 is not/,
    );
  });

  it('only a POST with a marked value is remembered: no marker, unmarked fields, or other methods', async () => {
    const server = await localServer((seen, res) => {
      if (seen.method !== 'GET') return json(res, 503, {});
      return json(res, 200, [{ id: 1, title: `A ${MARK}`, count: 1 }]);
    });
    servers.push(server);
    const unmarked = new ApiClient({ baseUrl: server.url });
    await unmarked.send({ method: 'POST', path: '/suites', body: { title: `A ${MARK}` } });
    expect((await unmarked.send({ method: 'GET', path: '/suites' })).reconciled).toBeUndefined();
    const client = new ApiClient({ baseUrl: server.url, marker: MARK });
    await client.send({ method: 'POST', path: '/suites', body: { title: 'A', count: 1 } });
    await client.send({ method: 'POST', path: '/suites', body: `A ${MARK}` });
    await client.send({ method: 'POST', path: '/suites' });
    await client.send({ method: 'PUT', path: '/suites', body: { title: `A ${MARK}` } });
    expect((await client.send({ method: 'GET', path: '/suites' })).reconciled).toBeUndefined();
  });

  it('a failed read finds nothing, and a 4xx is not a lost create', async () => {
    let status = 500;
    const server = await localServer((seen, res) => {
      if (seen.method === 'POST') return json(res, status, {});
      return json(res, 404, [{ id: 1, title: `A ${MARK}` }]);
    });
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url, marker: MARK });
    status = 499;
    await client.send({ method: 'POST', path: '/suites', body: { title: `A ${MARK}` } });
    expect((await client.send({ method: 'GET', path: '/suites' })).reconciled).toBeUndefined();
  });

  it('a POST that gets no response is remembered, and the error says what may have happened', async () => {
    const server = await localServer((seen, res) => {
      if (seen.method === 'POST') return res.socket?.destroy();
      return json(res, 200, [{ id: 9, title: `A ${MARK}` }]);
    });
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url, marker: MARK });
    const error = (await client
      .send({ method: 'POST', path: '/suites', body: { title: `A ${MARK}` } })
      .catch((caught: unknown) => caught)) as TallyError;
    expect(error).toBeInstanceOf(TallyError);
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toMatch(
      /^POST \/suites got no response \(.+\): the server may or may not have acted\. Check that the app is running at http:\/\/127\.0\.0\.1:\d+; after a lost create, lookup the collection before retrying\.$/,
    );
    const read = await client.send({ method: 'GET', path: '/suites' });
    expect(read.reconciled?.[0]).toMatchObject({ path: '/suites/9', lostVia: 'POST /suites → no response' });
  });

  it('a GET with no response says nothing was read', async () => {
    const server = await localServer((_seen, res) => res.socket?.destroy());
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url });
    await expect(client.send({ method: 'GET', path: '/x' })).rejects.toThrow(
      /^GET \/x got no response \(.+\): nothing was read\./,
    );
  });

  it('an aborted request carries the abort reason', async () => {
    const server = await localServer(() => undefined);
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url });
    const controller = new AbortController();
    const sending = client.send({ method: 'GET', path: '/slow' }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(sending).rejects.toThrow(/got no response \(This operation was aborted\)/);
  });
});

describe('what a response says', () => {
  it('status from the HTTP line, JSON only when it says so, ids only from a successful write, and the location', async () => {
    const server = await localServer((seen, res) => {
      if (seen.url === '/text') {
        res.writeHead(201, { 'content-type': 'text/plain', location: '/things/5' });
        return res.end('{"id": 4}');
      }
      if (seen.url === '/broken') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{not json');
      }
      if (seen.url === '/moved') {
        res.writeHead(302, { location: '/elsewhere' });
        return res.end();
      }
      if (seen.url === '/empty') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end();
      }
      if (seen.url === '/none') {
        res.writeHead(200);
        return res.end('{"id":3}');
      }
      return json(res, 200, { id: 8, status: 'archived' });
    });
    servers.push(server);
    const client = new ApiClient({ baseUrl: server.url });
    const text = await client.send({ method: 'POST', path: '/text', body: {} });
    expect(text).toMatchObject({
      method: 'POST',
      path: '/text',
      url: `${server.url}/text`,
      status: 201,
      ok: true,
      ids: ['5'],
      body: '{"id": 4}',
      location: '/things/5',
    });
    expect(text.category).toBeUndefined();
    expect(typeof text.durationMs).toBe('number');
    expect((await client.send({ method: 'GET', path: '/broken' })).body).toBe('{not json');
    expect((await client.send({ method: 'GET', path: '/empty' })).body).toBe('');
    expect((await client.send({ method: 'GET', path: '/none' })).body).toBe('{"id":3}');
    const moved = await client.send({ method: 'POST', path: '/moved', body: {} });
    expect(moved).toMatchObject({ status: 302, ok: false, ids: [], location: '/elsewhere' });
    expect(moved.category).toBeUndefined();
    const read = await client.send({ method: 'get', path: '/item', query: { a: 1 } });
    expect(read).toMatchObject({
      method: 'GET',
      path: '/item?a=1',
      status: 200,
      ok: true,
      ids: [],
      body: { id: 8, status: 'archived' },
    });
    expect(Object.keys(read)).not.toContain('location');
    expect(Object.keys(read)).not.toContain('reconciled');
    const patch = await client.send({ method: 'PATCH', path: '/item', body: {} });
    expect(patch.ids).toEqual(['8']);
  });
});
