import { describe, expect, it } from 'vitest';
import { cleanupRun } from '../../../src/agents/fisherman/cleanup-run.js';
import { buildFishContext } from '../../../src/agents/fisherman/fish-context.js';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../../src/demo-app/server.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { endpointSpecTool } from '../../../src/packs/http/tools/endpoint-spec-tool.js';
import { tempLedger } from '../../helpers.js';
import { demoApp } from '../../packs/http/demo-fixtures.js';

/**
 * Achieve mode with configured headers: the test logs in itself (as a person would, then
 * copies the cookie and the CSRF token) and hands them over as headers.
 */
async function sessionHeaders(baseUrl: string): Promise<Record<string, string>> {
  const login = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: DEMO_EMAIL, password: DEMO_PASSWORD }).toString(),
    redirect: 'manual',
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await (await fetch(`${baseUrl}/projects`, { headers: { cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1];
  expect(cookie).toMatch(/=/);
  expect(csrf).toBeTruthy();
  return { cookie, 'x-csrf-token': csrf as string };
}

describe('achieve mode against the demo app and its own OpenAPI document', () => {
  it('serves a document true to the API: required title, suite_id, priority enum, 422 shape', async () => {
    const { app } = await demoApp();
    const spec = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as {
      components: {
        schemas: Record<string, { required?: string[]; properties: Record<string, { enum?: string[] }> }>;
      };
    };
    expect(spec.components.schemas.TestInput?.required).toEqual(['title', 'suite_id']);
    expect(spec.components.schemas.TestInput?.properties.priority?.enum).toEqual(['low', 'normal', 'high']);
    const headers = { ...(await sessionHeaders(app.url)), 'content-type': 'application/json' };
    const bad = await fetch(`${app.url}/api/alpha-shop/tests`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'x', suite_id: 101, priority: 'urgent' }),
    });
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(spec.components.schemas.ValidationError?.required?.sort());
  });

  it('"2 suites with 3 tests each" from the spec alone: 0 model calls, verified, children linked', async () => {
    const { app, seen } = await demoApp();
    const headers = await sessionHeaders(app.url);
    const ledger = tempLedger();
    const result = await prepareData({
      request: '2 suites with 3 tests each',
      captures: [],
      specs: [`${app.url}/api/openapi.json`],
      baseUrl: app.url,
      scope: '/projects/alpha-shop',
      headers,
      ledger,
      env: {},
    });
    expect(result).toMatchObject({
      status: 'success',
      tier: 'deterministic',
      unmet: [],
      counts: { modelCalls: 0 },
    });
    expect(result.verified).toHaveLength(8);
    expect(result.verified.map((item) => item.via)).toEqual([
      'POST /api/alpha-shop/suites → 201',
      ...Array(3).fill('POST /api/alpha-shop/tests → 201'),
      'POST /api/alpha-shop/suites → 201',
      ...Array(3).fill('POST /api/alpha-shop/tests → 201'),
    ]);
    const suites = [...app.store.suites.values()];
    expect(suites).toHaveLength(2);
    for (const suite of suites) {
      expect(suite.title).toMatch(new RegExp(`^Suite \\d · ${result.verified[0]?.title?.split(' · ')[1]}$`));
      expect([...app.store.tests.values()].filter((test) => test.suite_id === suite.id)).toHaveLength(3);
    }
    // One request per entity; the document itself is the only read.
    expect(
      seen.filter((request) => request.method === 'POST' && request.path.startsWith('/api/')),
    ).toHaveLength(8);
  });

  it('get_endpoint_spec answers with the POST operation, not the GET at the same path', async () => {
    const { app } = await demoApp();
    const context = await buildFishContext({
      captures: [],
      specs: [`${app.url}/api/openapi.json`],
      baseUrl: app.url,
      env: {},
    });
    const outcome = await endpointSpecTool(context).execute(
      { method: 'POST', path: '/api/alpha-shop/tests' },
      { runId: 'test', recordFailOpen: () => {} } as never,
    );
    const result = outcome.result as {
      method: string;
      path: string;
      requestBody: { schema: { required: string[] }; sample: Record<string, unknown> };
    };
    expect(result).toMatchObject({ method: 'POST', path: '/api/{project}/tests' });
    expect(result.requestBody.schema.required).toEqual(['title', 'suite_id']);
    expect(result.requestBody.sample).toMatchObject({ title: 'tally', suite_id: 1 });
  });

  it('--login with --spec: the recipe logs in now (cookie + CSRF), the run and its cleanup both use it', async () => {
    const { app } = await demoApp();
    const ledger = tempLedger();
    const specs = [`${app.url}/api/openapi.json`];
    const result = await prepareData({
      request: '1 suite with 2 tests',
      captures: [],
      specs,
      baseUrl: app.url,
      scope: '/projects/alpha-shop',
      login: DEMO_LOGIN,
      loginName: 'demo',
      ledger,
      env: {},
    });
    expect(result.unmet, result.summary).toEqual([]);
    expect(result).toMatchObject({ status: 'success', tier: 'deterministic', counts: { modelCalls: 0 } });
    expect(app.store.suites.size).toBe(1);
    expect(app.store.tests.size).toBe(2);
    // The session's cookie and CSRF token never reach the ledger.
    const stored = JSON.stringify(ledger.entries(result.runId));
    expect(stored).not.toContain(DEMO_PASSWORD);
    const cleaned = await cleanupRun({
      runId: result.runId,
      captures: [],
      specs,
      baseUrl: app.url,
      login: DEMO_LOGIN,
      ledger,
      env: {},
    });
    expect(cleaned.deletions.map((deletion) => deletion.outcome)).toEqual(['deleted', 'deleted', 'deleted']);
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
  });

  it('--login with --spec and wrong credentials stops before any API request, saying the login failed', async () => {
    const { app, seen } = await demoApp();
    await expect(
      buildFishContext({
        captures: [],
        specs: [`${app.url}/api/openapi.json`],
        baseUrl: app.url,
        login: { ...DEMO_LOGIN, form: { email: DEMO_EMAIL, password: 'wrong' } },
        env: {},
      }),
    ).rejects.toMatchObject({ code: 'LOGIN_FAILED' });
    expect(seen.filter((request) => request.path.startsWith('/api/') && request.method !== 'GET')).toEqual(
      [],
    );
  });

  it('asks for --captures or --spec when given neither', async () => {
    await expect(buildFishContext({ captures: [] })).rejects.toMatchObject({
      code: 'FISHERMAN_NEEDS_INPUT',
      message: expect.stringMatching(/--captures.*--spec/s),
    });
  });

  it('takes headers from TALLY_FISH_HEADERS, --header winning', async () => {
    const { app, seen } = await demoApp();
    const headers = await sessionHeaders(app.url);
    const ledger = tempLedger();
    const result = await prepareData({
      request: '1 suite',
      captures: [],
      specs: [`${app.url}/api/openapi.json`],
      baseUrl: app.url,
      scope: '/projects/alpha-shop',
      headers: { 'x-csrf-token': headers['x-csrf-token'] as string },
      env: { TALLY_FISH_HEADERS: `Cookie: ${headers.cookie}\nX-CSRF-Token: stale` },
      ledger,
    });
    expect(result).toMatchObject({ status: 'success', counts: { modelCalls: 0 } });
    const post = seen.find((request) => request.method === 'POST' && request.path.startsWith('/api/'));
    expect(post?.headers['x-csrf-token']).toBe(headers['x-csrf-token']);
  });
});
