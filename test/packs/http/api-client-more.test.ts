import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/packs/http/client/api-client.js';
import type { LiveSession } from '../../../src/packs/http/client/login-recipe.js';

const MARK = '[run-9]';

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fake fetch: answers each request with the next scripted reply (a throw for an Error). */
function scripted(
  ...replies: (Error | { status: number; body?: unknown; type?: string; delayMs?: number })[]
) {
  const sent: Sent[] = [];
  const fake = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    sent.push({
      method: String(init?.method),
      path: url.pathname,
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body,
    });
    const reply = replies.shift();
    if (!reply) throw new Error('no reply scripted');
    if (reply instanceof Error) throw reply;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return new Response(reply.status === 204 ? null : text, {
      status: reply.status,
      headers: { 'content-type': reply.type ?? 'application/json' },
    });
  };
  return { sent, fetch: fake as typeof fetch };
}

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('what a request carries', () => {
  it('a POST without a body sends no body and no content type; a DELETE never sends a body', async () => {
    const { sent, fetch } = scripted({ status: 200, body: {} }, { status: 204 });
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch, allowDelete: true });
    await client.send({ method: 'POST', path: '/suites/1/archive' });
    await client.send({ method: 'DELETE', path: '/suites/1', body: { reason: 'x' } });
    expect(sent.map(({ method, headers, body }) => [method, headers['content-type'], body])).toEqual([
      ['POST', undefined, undefined],
      ['DELETE', undefined, undefined],
    ]);
  });
});

describe('refusals and failures carry their facts', () => {
  it('an unparseable path and another origin name the path (and the origin)', () => {
    const client = new ApiClient({ baseUrl: 'http://app.test' });
    expect(caught(() => client.resolve('http://[bad'))).toMatchObject({
      code: 'PATH_INVALID',
      details: { path: 'http://[bad' },
    });
    expect(caught(() => client.resolve('http://evil.test/x'))).toMatchObject({
      code: 'ORIGIN_LOCKED',
      details: { path: 'http://evil.test/x', origin: 'http://evil.test' },
    });
  });

  it('no response names the system error code first, else its message', async () => {
    const refused = new TypeError('fetch failed', {
      cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' },
    });
    const reset = new TypeError('fetch failed', { cause: { message: 'other side closed' } });
    const { fetch } = scripted(refused, reset);
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch });
    await expect(client.send({ method: 'GET', path: '/suites' })).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringMatching(/^GET \/suites got no response \(ECONNREFUSED\): nothing was read/),
      details: { method: 'GET', path: '/suites' },
    });
    await expect(client.send({ method: 'GET', path: '/suites' })).rejects.toMatchObject({
      message: expect.stringContaining('(other side closed)'),
    });
  });
});

describe('finding a lost create again', () => {
  async function lostThen(reply: { status: number; body?: unknown }) {
    const { fetch } = scripted({ status: 502, body: { message: 'bad gateway' } }, reply);
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch, marker: MARK });
    const lost = await client.send({ method: 'POST', path: '/suites', body: { title: `Smoke ${MARK}` } });
    expect(lost.ok).toBe(false);
    return client.send({ method: 'GET', path: '/suites/7' });
  }

  it('a read of the bare item (no data wrapper) finds it', async () => {
    const read = await lostThen({ status: 200, body: { id: 7, title: `Smoke ${MARK}` } });
    expect(read.reconciled?.map((found) => found.path)).toEqual(['/suites/7']);
  });

  it('an item whose own `data` field is text is still the item', async () => {
    const read = await lostThen({ status: 200, body: { id: 7, title: `Smoke ${MARK}`, data: 'notes' } });
    expect(read.reconciled?.map((found) => found.path)).toEqual(['/suites/7']);
  });

  it('a read answering JSON null finds nothing and does not fail', async () => {
    const read = await lostThen({ status: 200, body: null });
    expect(read.ok).toBe(true);
    expect(read.reconciled ?? []).toEqual([]);
  });
});

describe('what a response says', () => {
  it('a session with no cookie for the path sends no cookie header', async () => {
    const { sent, fetch } = scripted({ status: 200, body: [] });
    const session = { jar: { header: () => undefined }, startedAt: '' } as unknown as LiveSession;
    await new ApiClient({ baseUrl: 'http://app.test', fetch, session }).send({
      method: 'GET',
      path: '/suites',
    });
    expect('cookie' in (sent[0]?.headers ?? {})).toBe(false);
  });

  it('300 is a redirect, not a success', async () => {
    const { fetch } = scripted({ status: 300, body: {} });
    const read = await new ApiClient({ baseUrl: 'http://app.test', fetch }).send({
      method: 'GET',
      path: '/x',
    });
    expect(read.ok).toBe(false);
  });

  it('a read or a delete names no ids: ids come only from a write’s own response', async () => {
    const { fetch } = scripted(
      { status: 200, body: { id: 7 } },
      { status: 200, body: { id: 7 } },
      { status: 201, body: { id: 8 } },
    );
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch, allowDelete: true });
    expect((await client.send({ method: 'GET', path: '/suites/7' })).ids).toEqual([]);
    expect((await client.send({ method: 'DELETE', path: '/suites/7' })).ids).toEqual([]);
    expect((await client.send({ method: 'POST', path: '/suites', body: {} })).ids).toEqual(['8']);
  });

  it('the duration is in milliseconds, to two decimals', async () => {
    const { fetch } = scripted({ status: 200, body: {}, delayMs: 40 });
    const { durationMs } = await new ApiClient({ baseUrl: 'http://app.test', fetch }).send({
      method: 'GET',
      path: '/x',
    });
    expect(durationMs).toBeGreaterThanOrEqual(30);
    expect(durationMs).toBeLessThan(10_000);
    expect(Math.round(durationMs * 100) / 100).toBe(durationMs);
  });
});

describe('which responses find a lost create', () => {
  it('a 500 answer to a create is remembered as lost, like a 502', async () => {
    const { fetch } = scripted(
      { status: 500, body: {} },
      { status: 200, body: [{ id: 7, title: `A ${MARK}` }] },
    );
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch, marker: MARK });
    await client.send({ method: 'POST', path: '/suites', body: { title: `A ${MARK}` } });
    const read = await client.send({ method: 'GET', path: '/suites' });
    expect(read.reconciled?.map((found) => found.path)).toEqual(['/suites/7']);
  });

  it('only a successful read finds one: not a retried create, not a failed read', async () => {
    const { fetch } = scripted(
      { status: 502, body: {} },
      { status: 201, body: { id: 8, title: `A ${MARK}` } },
      { status: 404, body: [{ id: 7, title: `A ${MARK}` }] },
      { status: 200, body: [{ id: 7, title: `A ${MARK}` }] },
    );
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch, marker: MARK });
    await client.send({ method: 'POST', path: '/suites', body: { title: `A ${MARK}` } });
    const retry = await client.send({ method: 'POST', path: '/suites', body: { title: `A ${MARK}` } });
    expect(retry.reconciled).toBeUndefined();
    const failed = await client.send({ method: 'GET', path: '/suites' });
    expect(failed.reconciled).toBeUndefined();
    const read = await client.send({ method: 'GET', path: '/suites' });
    expect(read.reconciled?.map((found) => found.path)).toEqual(['/suites/7']);
  });
});

describe('cleanup by marker (markedBy)', () => {
  it('a read of a collection the run posted to names the items whose marked field carries the marker at a word start; only those may be deleted', async () => {
    const { fetch } = scripted(
      {
        status: 200,
        body: {
          data: [
            { id: 1, title: 'Suite 1 · a1b2c3' },
            { id: 2, title: 'Suite 2 · a1b2c3', email: 'x' },
            { id: 3, title: 'Checksum ffa1b2c3 from someone else' },
            { id: 4, title: 'Unmarked' },
            { id: 5, name: 'Suite 5 · a1b2c3' },
          ],
        },
      },
      { status: 200, body: { data: [{ id: 7, title: 'Suite 7 · a1b2c3' }] } },
      { status: 204 },
    );
    const client = new ApiClient({
      baseUrl: 'http://app.test',
      fetch,
      markedBy: { marker: 'a1b2c3', fields: { '/api/suites': ['title'] } },
    });
    const listing = await client.send({ method: 'GET', path: '/api/suites' });
    expect(listing.marked).toEqual([
      { path: '/api/suites/1', id: '1', field: 'title', value: 'Suite 1 · a1b2c3' },
      { path: '/api/suites/2', id: '2', field: 'title', value: 'Suite 2 · a1b2c3' },
    ]);
    // A collection the run never posted to is not searched, whatever its items say.
    expect((await client.send({ method: 'GET', path: '/api/other' })).marked).toBeUndefined();
    expect((await client.send({ method: 'DELETE', path: '/api/suites/1' })).status).toBe(204);
    await expect(client.send({ method: 'DELETE', path: '/api/suites/3' })).rejects.toThrow(
      /DELETE_REFUSED|not a resource this run created/,
    );
  });
});

describe('a 2xx whose body says the request failed is not a success', () => {
  it.each([
    [{ id: 101, title: 'A', error: 'Quota exceeded: not saved' }],
    [{ ok: false, error: 'invalid_auth' }],
    [{ success: false, data: { id: 101 } }],
    [{ data: null, errors: [{ message: 'not allowed' }] }],
    [{ id: 101, error: { code: 'E_SAVE' } }],
  ])('%j', async (body) => {
    const { fetch } = scripted({ status: 200, body });
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch });
    const response = await client.send({ method: 'POST', path: '/suites', body: { title: 'A' } });
    expect(response).toMatchObject({ status: 200, ok: false, ids: [] });
  });

  it.each([
    [{ id: 7, title: 'A', error: null }],
    [{ id: 7, title: 'A', error: '' }],
    [{ id: 7, title: 'A', errors: [] }],
    [{ data: { id: 7 }, ok: true }],
  ])('%j is a success', async (body) => {
    const { fetch } = scripted({ status: 201, body });
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch });
    const response = await client.send({ method: 'POST', path: '/suites', body: { title: 'A' } });
    expect(response).toMatchObject({ ok: true, ids: ['7'] });
  });

  it('an `error` field the request sent is the resource’s own data (an error report created)', async () => {
    const { fetch } = scripted({ status: 201, body: { id: 7, error: 'NullPointerException' } });
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch });
    const response = await client.send({
      method: 'POST',
      path: '/crashes',
      body: { error: 'NullPointerException' },
    });
    expect(response).toMatchObject({ ok: true, ids: ['7'] });
  });

  it.each([
    ['ok', { ok: false }],
    ['success', { success: false }],
    ['errors', { errors: ['flaky'] }],
  ])('a `%s` field the request sent is data, not the answer’s verdict', async (_key, fields) => {
    const { fetch } = scripted({ status: 201, body: { uuid: 'r-7', ...fields } });
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch });
    const response = await client.send({ method: 'POST', path: '/runs', body: fields });
    expect(response).toMatchObject({ ok: true, ids: ['r-7'] });
  });

  it.each([[{ id: 7, success: false, errors: ['assertion failed'] }], [{ id: 7, ok: false }]])(
    'a resource answered with %j carries those as its own fields',
    async (body) => {
      const { fetch } = scripted({ status: 201, body });
      const client = new ApiClient({ baseUrl: 'http://app.test', fetch });
      const response = await client.send({ method: 'POST', path: '/runs', body: { suite: 1 } });
      expect(response).toMatchObject({ ok: true, ids: ['7'] });
    },
  );

  it('a read of a resource whose fields say it failed is a successful read', async () => {
    const { fetch } = scripted({
      status: 200,
      body: { id: 7, success: false, error: 'AssertionError', errors: ['x'] },
    });
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch });
    expect(await client.send({ method: 'GET', path: '/runs/7' })).toMatchObject({ status: 200, ok: true });
  });

  it('a read whose envelope says it failed is a failed read', async () => {
    const { fetch } = scripted({ status: 200, body: { ok: false, error: 'not_authed' } });
    const client = new ApiClient({ baseUrl: 'http://app.test', fetch });
    expect(await client.send({ method: 'GET', path: '/runs' })).toMatchObject({ status: 200, ok: false });
  });
});
