/**
 * HTTP creates, exactly (issue 17, part 6): a `created` effect needs evidence of creation —
 * 201, a Location header, or a resource the run had not seen existing; a POST answered 200
 * with the id of a resource this run already saw is an update (upsert, get-or-create). And a
 * lost create is found again by any read, in every tier, even when the model left the run's
 * marker out of its title (the request tool stamps it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type PrepareDataResult, prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import type { Effect } from '../../../src/core/effects.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { ApiClient } from '../../../src/packs/http/client/api-client.js';
import { httpEffects } from '../../../src/packs/http/tools/http-effects.js';
import { stampMarker } from '../../../src/packs/http/tools/stamp-marker.js';
import { callTool, type ScriptStep, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { type FaultRule, startFaultProxy } from '../../truth/fault-proxy.js';
import { restHar } from '../../truth/ground-truth.js';
import { type RestAppOptions, startRestApp } from '../../truth/rest-app.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await (closers.pop() as () => Promise<void>)();
});

async function restApp(options: RestAppOptions = {}, faults?: FaultRule[]) {
  const app = await startRestApp(options);
  closers.push(() => app.close());
  if (!faults) return { app, url: app.url };
  const proxy = await startFaultProxy(app.url, faults);
  closers.push(() => proxy.close());
  return { app, url: proxy.url };
}

const normalize = (path: string) =>
  path
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) ? '{id}' : segment))
    .join('/');

async function post(client: ApiClient, body: Record<string, unknown>, run = 'run-1') {
  const response = await client.send({ method: 'POST', path: '/posts', body }, undefined, run);
  return { response, effects: httpEffects(response, body, normalize) };
}

const kinds = (effects: Effect[]) => effects.map((effect) => `${effect.kind} ${effect.key}`);

describe('what a POST answered 2xx did', () => {
  it('201 is a create, even from an upsert endpoint', async () => {
    const { url } = await restApp({ upsert: true });
    const client = new ApiClient({ baseUrl: url });
    const { response, effects } = await post(client, { title: 'A', slug: 'a' });
    expect(response.status).toBe(201);
    expect(kinds(effects)).toEqual(['created /posts/1']);
  });

  it('200 with a Location header naming a new item is a create', async () => {
    const { url } = await restApp({ createStatus: 200, location: true });
    const client = new ApiClient({ baseUrl: url });
    const { response, effects } = await post(client, { title: 'A' });
    expect(response).toMatchObject({ status: 200, location: '/posts/1', ids: ['1'] });
    expect(response.before).toBeUndefined();
    expect(kinds(effects)).toEqual(['created /posts/1']);
  });

  it('a plain 200 with an id this run never saw is a create (many APIs answer 200 on create)', async () => {
    const { url } = await restApp({ createStatus: 200 });
    const client = new ApiClient({ baseUrl: url });
    expect(kinds((await post(client, { title: 'A' })).effects)).toEqual(['created /posts/1']);
  });

  it('a 200 for an item missing from the run’s earlier unfiltered read was absent before: a create', async () => {
    const { url } = await restApp({ createStatus: 200 });
    const client = new ApiClient({ baseUrl: url });
    await client.send({ method: 'GET', path: '/posts' }, undefined, 'run-1');
    const { response, effects } = await post(client, { title: 'A' });
    expect(response.before).toBe('absent');
    expect(kinds(effects)).toEqual(['created /posts/1']);
  });

  it('get-or-create: 200 with the id of a post the run listed before is an update of it, and not deletable', async () => {
    const { app, url } = await restApp({ upsert: true, createStatus: 200 });
    const seeder = new ApiClient({ baseUrl: app.url });
    await seeder.send({ method: 'POST', path: '/posts', body: { title: 'Old', slug: 'old' } });
    const client = new ApiClient({ baseUrl: url });
    await client.send({ method: 'GET', path: '/posts' }, undefined, 'run-1');
    const { response, effects } = await post(client, { title: 'Old again', slug: 'old' });
    expect(response).toMatchObject({ status: 200, ids: ['1'], before: 'existing' });
    expect(effects).toEqual([
      {
        kind: 'updated',
        space: 'http',
        key: '/posts/1',
        id: '1',
        type: 'post',
        observed: { status: 200, title: 'Old', parents: [], existed: 'seen earlier in this run' },
      },
    ]);
    // The run did not make it, so it may not delete it.
    await expect(client.send({ method: 'DELETE', path: '/posts/1' }, undefined, 'run-1')).rejects.toThrow(
      /DELETE \/posts\/1 is not a resource this run created/,
    );
  });

  it('get-or-create: an item read by its own path, or made earlier by this run, is seen existing too', async () => {
    const { app, url } = await restApp({ upsert: true, createStatus: 200 });
    await new ApiClient({ baseUrl: app.url }).send({
      method: 'POST',
      path: '/posts',
      body: { title: 'Old', slug: 'old' },
    });
    const client = new ApiClient({ baseUrl: url });
    await client.send({ method: 'GET', path: '/posts/1' }, undefined, 'run-1');
    expect(kinds((await post(client, { title: 'x', slug: 'old' })).effects)).toEqual(['updated /posts/1']);
    expect(kinds((await post(client, { title: 'New', slug: 'new' })).effects)).toEqual(['created /posts/2']);
    expect(kinds((await post(client, { title: 'New', slug: 'new' })).effects)).toEqual(['updated /posts/2']);
  });

  it('what one run saw is not another run’s: a second run on the same client knows nothing of it', async () => {
    const { app, url } = await restApp({ upsert: true, createStatus: 200 });
    await new ApiClient({ baseUrl: app.url }).send({
      method: 'POST',
      path: '/posts',
      body: { title: 'Old', slug: 'old' },
    });
    const client = new ApiClient({ baseUrl: url });
    await client.send({ method: 'GET', path: '/posts' }, undefined, 'run-1');
    const other = await post(client, { title: 'Old', slug: 'old' }, 'run-2');
    expect(other.response.before).toBeUndefined();
    expect(kinds(other.effects)).toEqual(['created /posts/1']);
  });
});

describe('the request tool stamps the run’s marker into a create’s title', () => {
  const stamp = (method: string, path: string, body: unknown, marker: string | undefined) =>
    stampMarker(method, path, body, marker, normalize);

  it('a POST to a collection: the first title-like field gets " · marker"', () => {
    expect(stamp('POST', '/posts', { body: 'x', name: 'Hello ', title: 'T' }, 'm1')).toEqual({
      body: { body: 'x', name: 'Hello · m1', title: 'T' },
      stamped: { field: 'name', value: 'Hello · m1' },
    });
    expect(stamp('POST', '/api/article', { title: 'A' }, 'm1').stamped).toEqual({
      field: 'title',
      value: 'A · m1',
    });
  });

  it('never: no marker, not a POST, an action or an item, no title, a blank one, or a marker already there', () => {
    const body = { title: 'A' };
    for (const [method, path, sent, marker] of [
      ['POST', '/posts', body, undefined],
      ['PUT', '/posts', body, 'm1'],
      ['POST', '/posts/1/move', body, 'm1'],
      ['POST', '/posts/1', body, 'm1'],
      ['POST', '/posts', { body: 'x' }, 'm1'],
      ['POST', '/posts', { title: '  ' }, 'm1'],
      ['POST', '/posts', { title: 'A', note: 'made by m1' }, 'm1'],
      ['POST', '/posts', ['A'], 'm1'],
    ] as const) {
      const result = stamp(method, path, sent, marker);
      expect(result.body, `${method} ${path}`).toBe(sent);
      expect(result.stamped).toBeUndefined();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The model tier, scripted, against the small REST app (ids from 1), through prepareData.

async function fish(url: string, request: string, steps: ScriptStep[]) {
  const ledger: Ledger = tempLedger();
  const model = scriptedModel(steps);
  const result: PrepareDataResult = await prepareData({
    request,
    captures: [restHar(tempDir('tally-creates-har-'), { opaque: true })],
    baseUrl: url,
    ledger,
    model,
    env: {},
    maxRetries: 0,
  });
  return { result, entries: ledger.entries(result.runId), model };
}

const effectsIn = (entries: LedgerEntry[]) =>
  entries
    .filter((entry) => entry.kind === 'tool_call' && entry.outcome === 'ok')
    .flatMap((entry) => (entry.data.evidence as { effects?: Effect[] } | undefined)?.effects ?? []);

const giveUp = callTool('stop', { reason: 'My report was not accepted; stopping.' });

describe('the model tier', () => {
  it('a claim "created" of what a get-or-create POST answered 200 with an id it had listed is dropped', async () => {
    const { app, url } = await restApp({ upsert: true, createStatus: 200 });
    await new ApiClient({ baseUrl: app.url }).send({
      method: 'POST',
      path: '/posts',
      body: { title: 'Old', slug: 'old' },
    });
    const { result, entries } = await fish(url, '1 post', [
      callTool('lookup', { path: '/posts' }),
      callTool('request', { method: 'POST', path: '/posts', body: { title: 'Old', slug: 'old' } }),
      callTool('finish', { summary: 'Created post 1.', created: [{ type: 'post', id: 1 }] }),
      giveUp,
    ]);
    expect(result.status).not.toBe('success');
    expect(result.verified).toEqual([]);
    // The finish is rejected back to the model, naming why; the model then stops.
    expect(result.summary).toContain(
      'post 1 (/posts/1) was updated in this run, not created (claim "updated post 1")',
    );
    expect(effectsIn(entries).map((effect) => effect.kind)).toEqual(['read', 'updated']);
  });

  it('a create whose response was lost, its title without the marker, found by lookup: verified as created and the failure recovered', async () => {
    const { url } = await restApp({}, [
      { method: 'POST', path: /^\/posts$/, fault: { kind: 'status', status: 502 } },
    ]);
    const { result, entries } = await fish(url, '1 post', [
      callTool('request', { method: 'POST', path: '/posts', body: { title: 'Hello' } }),
      callTool('lookup', { path: '/posts' }),
      callTool('finish', { summary: 'Created post 1.', created: [{ type: 'post', id: 1, title: 'Hello' }] }),
      giveUp,
    ]);
    expect(result.status).toBe('success');
    expect(result.unmet).toEqual([]);
    expect(result.verified).toEqual([
      expect.objectContaining({
        type: 'post',
        target: '1',
        title: `Hello · ${result.marker}`,
        reconciled: true,
        via: 'POST /posts → 502 (response lost), found by GET /posts → 200',
      }),
    ]);
    const failed = entries.find((entry) => entry.kind === 'tool_call' && entry.outcome === 'error');
    expect(failed?.data.result).toMatchObject({ status: 502, marked: { title: `Hello · ${result.marker}` } });
    expect(effectsIn(entries)).toEqual([
      expect.objectContaining({
        kind: 'created',
        key: '/posts/1',
        reconciledFrom: 'POST /posts → 502 (response lost)',
        recovers: { tool: 'request', intent: `POST /posts "Hello · ${result.marker}"` },
      }),
    ]);
  });

  it('the same through request GET (connection reset), with the lookup of the item itself', async () => {
    const { url } = await restApp({}, [{ method: 'POST', path: /^\/posts$/, fault: { kind: 'reset' } }]);
    const { result } = await fish(url, '1 post', [
      callTool('request', { method: 'POST', path: '/posts', body: { title: 'Hello' } }),
      callTool('request', { method: 'GET', path: '/posts/1' }),
      callTool('finish', { summary: 'Created post 1.', created: [{ type: 'post', id: 1 }] }),
      giveUp,
    ]);
    expect(result.status).toBe('success');
    expect(result.verified).toEqual([
      expect.objectContaining({
        target: '1',
        reconciled: true,
        via: 'POST /posts → no response (response lost), found by GET /posts/1 → 200',
      }),
    ]);
  });

  it('a claimed title may leave out the marker the tool added, but a different title is still dropped', async () => {
    const { url } = await restApp();
    const { result } = await fish(url, '1 post', [
      callTool('request', { method: 'POST', path: '/posts', body: { title: 'Alfa' } }),
      callTool('finish', {
        summary: 'Created post Alpha.',
        created: [{ type: 'post', id: 1, title: 'Alpha' }],
      }),
      giveUp,
    ]);
    expect(result.status).not.toBe('success');
    expect(result.dropped[0]?.why).toBe(
      `title mismatch: claimed "Alpha", but post 1 (/posts/1) is titled "Alfa · ${result.marker}"`,
    );
  });
});
