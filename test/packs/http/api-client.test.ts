import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolRejectedError } from '../../../src/core/errors.js';
import { ApiClient } from '../../../src/packs/http/client/api-client.js';
import { errorCategory } from '../../../src/packs/http/client/error-category.js';
import { extractIds } from '../../../src/packs/http/client/extract-ids.js';
import { DEMO_LOGIN, logIn, readLoginRecipe } from '../../../src/packs/http/client/login-recipe.js';
import { tempDir } from '../../helpers.js';
import { demoApp } from './demo-fixtures.js';

async function liveClient(options: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const { app, seen } = await demoApp();
  const session = await logIn(app.url, DEMO_LOGIN);
  return { app, seen, client: new ApiClient({ baseUrl: app.url, session, ...options }) };
}

describe('API client against the demo app', () => {
  it('creates with the live session and reports status, ids from the response and Location', async () => {
    const { client } = await liveClient();
    const response = await client.send({
      method: 'POST',
      path: '/api/alpha-shop/suites',
      body: { title: 'Smoke' },
    });
    expect(response).toMatchObject({
      status: 201,
      ok: true,
      ids: ['101'],
      location: '/api/alpha-shop/suites/101',
    });
  });

  it('the HTTP status is never overwritten by a body field named status', async () => {
    const { client } = await liveClient();
    await client.send({ method: 'POST', path: '/api/alpha-shop/suites', body: { title: 'Twice' } });
    const duplicate = await client.send({
      method: 'POST',
      path: '/api/alpha-shop/suites',
      body: { title: 'Twice' },
    });
    expect((duplicate.body as { status: number }).status).toBe(200);
    expect(duplicate).toMatchObject({ status: 409, ok: false, category: 'conflict', ids: [] });
  });

  it('ids come only from a write’s own response, never from a list that was read', async () => {
    const { client } = await liveClient();
    await client.send({ method: 'POST', path: '/api/alpha-shop/suites', body: { title: 'A' } });
    const list = await client.send({ method: 'GET', path: '/api/alpha-shop/suites' });
    expect(list.ids).toEqual([]);
    expect(extractIds({ data: [{ id: 1 }, { id: 2 }] }, undefined)).toEqual([]);
    expect(extractIds({ data: { id: 9 } }, undefined)).toEqual(['9']);
    expect(extractIds({ _id: 'abc' }, undefined)).toEqual(['abc']);
    expect(extractIds('', '/api/things/77?x=1')).toEqual(['77']);
  });

  it('finds the id inside single wrappers (envelope words, the collection name), never beside or in a list', () => {
    // `{"result": {"item": {...}}, "ok": true}` and Rails' `{"widget": {...}}`: the resource, wrapped.
    expect(extractIds({ result: { item: { id: 7, name: 'x' } }, ok: true }, undefined, 'gizmos')).toEqual([
      '7',
    ]);
    expect(extractIds({ widget: { id: 'w1' } }, undefined, 'widgets')).toEqual(['w1']);
    expect(extractIds({ testCase: { id: 3 } }, undefined, 'testCases')).toEqual(['3']);
    // Beside the resource (a request id under meta), two candidates, a list, or past the depth: none.
    expect(extractIds({ meta: { id: 'req_1' } }, undefined, 'widgets')).toEqual([]);
    expect(extractIds({ data: { x: 1 }, result: { id: 2 } }, undefined, 'widgets')).toEqual([]);
    expect(extractIds({ result: [{ id: 1 }] }, undefined, 'widgets')).toEqual([]);
    expect(extractIds({ data: { data: { data: { data: { id: 1 } } } } }, undefined)).toEqual([]);
    // Without the collection's name, a type-named wrapper is not followed; Location still answers.
    expect(extractIds({ widget: { id: 'w1' } }, '/widgets/w1')).toEqual(['w1']);
    expect(extractIds({ widget: { id: 'w1' } }, undefined)).toEqual([]);
  });

  it('refuses another origin before any request leaves', async () => {
    const { client, seen } = await liveClient();
    const before = seen.length;
    await expect(
      client.send({ method: 'POST', path: 'http://127.0.0.2:9/api/alpha-shop/suites', body: {} }),
    ).rejects.toThrow(ToolRejectedError);
    await expect(client.send({ method: 'GET', path: '//evil.test/x' })).rejects.toThrow(ToolRejectedError);
    expect(seen.length).toBe(before);
  });

  it('refuses DELETE of anything this client did not create, and allows what it did', async () => {
    const { client, app } = await liveClient();
    app.store.suites.set(77, {
      id: 77,
      project: 'alpha-shop',
      title: 'Someone else',
      description: '',
      position: 1,
      created_at: '',
    });
    await expect(client.send({ method: 'DELETE', path: '/api/alpha-shop/suites/77' })).rejects.toThrow(
      /is not a resource this run created/,
    );
    expect(app.store.suites.has(77)).toBe(true);
    const created = await client.send({
      method: 'POST',
      path: '/api/alpha-shop/suites',
      body: { title: 'Mine' },
    });
    const deleted = await client.send({ method: 'DELETE', path: `/api/alpha-shop/suites/${created.ids[0]}` });
    expect(deleted.status).toBe(204);
  });

  it('layers headers: capture auth < live session < configured; captured cookies are never sent', async () => {
    const { client, seen } = await liveClient({
      captureAuth: { 'x-csrf-token': 'STALE-FROM-HAR', authorization: 'Bearer from-har' },
      headers: { authorization: 'Bearer configured' },
    });
    const response = await client.send({
      method: 'POST',
      path: '/api/alpha-shop/suites',
      body: { title: 'Layered' },
    });
    expect(response.status).toBe(201);
    const sent = seen.at(-1)?.headers ?? {};
    expect(sent['x-csrf-token']).not.toBe('STALE-FROM-HAR');
    expect(sent.authorization).toBe('Bearer configured');
    expect(String(sent.cookie)).toMatch(/^demo_sid=[0-9a-f]+$/);
  });

  it('without a live session, a stale captured CSRF token is what fails — loudly, as authorization', async () => {
    const { app } = await demoApp();
    const client = new ApiClient({ baseUrl: app.url, captureAuth: { 'x-csrf-token': 'STALE' } });
    const response = await client.send({
      method: 'POST',
      path: '/api/alpha-shop/suites',
      body: { title: 'x' },
    });
    expect(response).toMatchObject({ status: 401, ok: false, category: 'authorization' });
  });

  it.each([
    [400, 'validation'],
    [422, 'validation'],
    [401, 'authorization'],
    [403, 'authorization'],
    [404, 'not_found'],
    [409, 'conflict'],
    [429, 'temporary'],
    [408, 'temporary'],
    [503, 'server'],
    [418, 'client'],
  ])('status %i is a %s error', (status, category) => {
    expect(errorCategory(status)).toBe(category);
  });
});

describe('login recipes', () => {
  it('a wrong password is a clear LOGIN_FAILED, not a silent anonymous session', async () => {
    const { app } = await demoApp();
    await expect(
      logIn(app.url, { ...DEMO_LOGIN, form: { email: 'demo@tally.test', password: 'nope' } }),
    ).rejects.toThrow(/Login at \/login answered 401/);
  });

  it('expands allowed ${ENV} values and names a missing one', async () => {
    const { app } = await demoApp();
    const recipe = {
      ...DEMO_LOGIN,
      form: { email: 'demo@tally.test', password: '${DEMO_PW}' },
      env: ['DEMO_PW'],
    };
    await expect(logIn(app.url, recipe, {})).rejects.toThrow(/needs \$\{DEMO_PW\} but it is not set/);
    const session = await logIn(app.url, recipe, { DEMO_PW: 'demo-password' });
    expect(session.csrf?.token).toMatch(/^[0-9a-f]{36}$/);
  });

  it('reads recipe files and rejects invalid ones with the problem', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ url: '/login', form: { user: 'a' } }));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ form: 'x' }));
    expect(readLoginRecipe(join(dir, 'ok.json'))).toMatchObject({
      url: '/login',
      method: 'POST',
      csrfHeader: 'x-csrf-token',
    });
    expect(() => readLoginRecipe(join(dir, 'bad.json'))).toThrow(/login recipe .* is invalid/);
    expect(() => readLoginRecipe(join(dir, 'missing.json'))).toThrow(/Cannot read the login recipe/);
  });
});
