import { describe, expect, it } from 'vitest';
import { type PrepareDataOptions, prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import type { DemoApp } from '../../../src/demo-app/server.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { callTool, type ScriptStep, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from '../../packs/http/demo-fixtures.js';

async function fishWithScript(
  request: string,
  steps: ScriptStep[],
  extra: Partial<PrepareDataOptions> = {},
  seed: (app: DemoApp) => void = () => {},
) {
  const { app, seen } = await demoApp();
  seed(app);
  const ledger = tempLedger();
  const model = scriptedModel(steps);
  const result = await prepareData({
    request,
    captures: [BUNDLED_HAR],
    scope: '/projects/alpha-shop',
    baseUrl: app.url,
    login: DEMO_LOGIN,
    ledger,
    model,
    env: {},
    ...extra,
  });
  return { app, seen, ledger, model, result, entries: ledger.entries(result.runId) };
}

const toolCalls = (entries: LedgerEntry[]) => entries.filter((entry) => entry.kind === 'tool_call');

describe('Fisherman model tier, scripted, against the demo app', () => {
  it('states the scope in its prompt and lists only in-scope endpoints through list_endpoints (captured data stays out of the system prompt)', async () => {
    const { model } = await fishWithScript('Please set up a checkout suite', [
      callTool('list_endpoints', {}, 'Looking.'),
      callTool('stop', { reason: 'just looking' }),
    ]);
    const system = JSON.stringify(model.calls[0]?.prompt[0]);
    expect(system).toContain('Scope: /projects/alpha-shop');
    expect(system).not.toContain('POST /api/{id}/suites');
    const listed = JSON.stringify(model.calls[1]?.prompt.at(-1));
    expect(listed).toContain('POST /api/{id}/suites');
    expect(listed).not.toContain('beta-blog');
  });

  it('a milestone "created" via the tests endpoint is dropped as a substitution', async () => {
    const { result, entries } = await fishWithScript('Please create a milestone for the release', [
      callTool('plan', { entities: [{ type: 'milestone', count: 1 }] }),
      callTool(
        'request',
        { method: 'POST', path: '/api/alpha-shop/suites', body: { title: 'Release' } },
        'Creating.',
      ),
      callTool('request', {
        method: 'POST',
        path: '/api/alpha-shop/tests',
        body: { title: 'Release milestone', suite_id: 101 },
      }),
      callTool('finish', {
        summary: 'Created the milestone.',
        created: [{ type: 'milestone', id: 5001, title: 'Release milestone' }],
      }),
    ]);
    expect(result.dropped).toEqual([
      {
        claim: expect.objectContaining({ target: '5001', type: 'milestone' }),
        why: expect.stringMatching(
          /^substitution: a milestone was claimed, but 5001 is test 5001 \(\/api\/alpha-shop\/tests\/5001\), from POST \/api\/alpha-shop\/tests → 201; claim "created test 5001"/,
        ),
      },
    ]);
    // Items are then taken from what really succeeded, typed by their endpoints.
    expect(result.verified.map((item) => [item.type, item.target])).toEqual([
      ['suite', '101'],
      ['test', '5001'],
    ]);
    expect(result.status).toBe('partial');
    expect(entries.some((entry) => entry.kind === 'claim' && entry.outcome === 'dropped')).toBe(true);
  });

  it('a finish with no writes is rejected back to the model', async () => {
    const { result, entries } = await fishWithScript('Please create a suite for the checkout flow', [
      callTool('finish', { summary: 'Done.', created: [{ type: 'suite', id: 101 }] }, 'Done already.'),
      callTool('stop', { reason: 'I had not created anything.' }),
    ]);
    const finish = toolCalls(entries).find((entry) => entry.name === 'finish');
    expect(finish).toMatchObject({ outcome: 'rejected', data: { error: { code: 'FINISH_REJECTED' } } });
    expect(result).toMatchObject({ endingReason: 'stopped', status: 'failed', verified: [] });
  });

  it('ids from a list the run only read are never reported as created', async () => {
    const { result, entries, model } = await fishWithScript(
      'Please make sure a suite exists',
      [
        callTool('lookup', { path: '/api/alpha-shop/suites' }, 'Checking what exists.'),
        callTool('finish', { summary: 'Created suite 77.', created: [{ type: 'suite', id: 77 }] }),
        callTool('stop', { reason: 'Suite 77 already existed; I created nothing.' }),
      ],
      {},
      (app) =>
        app.store.suites.set(77, {
          id: 77,
          project: 'alpha-shop',
          title: 'Existing',
          description: '',
          position: 1,
          created_at: '',
        }),
    );
    const dropped = entries.find((entry) => entry.kind === 'claim');
    expect(dropped).toMatchObject({
      outcome: 'dropped',
      data: {
        why: 'suite 77 (/api/alpha-shop/suites/77) was only read in this run, never created; a read proves nothing was made',
      },
    });
    expect(result.verified).toEqual([]);
    model.assertComplete();
  });

  it('five identical failing requests: the run stops at four with a summary from the ledger', async () => {
    const bad = callTool(
      'request',
      { method: 'POST', path: '/api/alpha-shop/tests', body: { title: 'No suite' } },
      'Trying.',
    );
    const { result, model, seen } = await fishWithScript('Please create a test called "Login works"', [
      bad,
      bad,
      bad,
      bad,
      bad,
    ]);
    expect(result.endingReason).toBe('repeated_failure');
    expect(model.remaining).toBe(1);
    expect(
      seen.filter((request) => request.method === 'POST' && request.path === '/api/alpha-shop/tests'),
    ).toHaveLength(4);
    expect(result.summary).toMatch(
      /Run ended: repeated_failure .*4 consecutive failures against request POST \/api\/\{id\}\/tests/,
    );
    expect(result.summary).toContain('Last failure: request POST /api/{id}/tests');
  });

  it('an exhausted run still ends with a non-empty summary and the items that really exist', async () => {
    const lookups = [1, 2, 3, 4].map((n) =>
      callTool('lookup', { path: '/api/alpha-shop/tests', query: { suite_id: n } }, 'Looking.'),
    );
    const { result } = await fishWithScript(
      'Please create a suite and look around',
      [
        callTool('plan', { entities: [{ type: 'suite', count: 1 }] }),
        callTool(
          'request',
          { method: 'POST', path: '/api/alpha-shop/suites', body: { title: 'Kept' } },
          'Creating.',
        ),
        ...lookups,
      ],
      { maxRounds: 6 },
    );
    expect(result.endingReason).toBe('round_cap');
    expect(result.summary).toMatch(/Run ended: round_cap/);
    expect(result.status).toBe('partial');
    expect(result.verified).toEqual([
      expect.objectContaining({ type: 'suite', target: '101', via: 'POST /api/alpha-shop/suites → 201' }),
    ]);
  });

  it('its own rejected request is never fed back as the example: the spec still shows the browser’s', async () => {
    const { entries } = await fishWithScript('Please create a test called "Login works"', [
      callTool(
        'request',
        { method: 'POST', path: '/api/alpha-shop/tests', body: { title: '' } },
        'Trying a test.',
      ),
      callTool('get_endpoint_spec', { method: 'POST', path: '/api/{id}/tests' }),
      callTool('stop', { reason: 'need a suite first' }),
    ]);
    const spec = toolCalls(entries).find((entry) => entry.name === 'get_endpoint_spec');
    const result = spec?.data.result as {
      status: number;
      requestBody: { title: string; suite_id: number };
      path: string;
    };
    expect(result.status).toBe(201);
    expect(result.requestBody.title).not.toBe('');
    expect(result.requestBody.suite_id).toEqual(expect.any(Number));
    expect(result.path).toBe('/api/alpha-shop/tests');
  });

  it('a body status field never turns a 409 into a success', async () => {
    const { result, entries } = await fishWithScript('Please create the Checkout suite twice', [
      callTool('plan', { entities: [{ type: 'suites', count: 2 }] }),
      callTool(
        'request',
        { method: 'POST', path: '/api/alpha-shop/suites', body: { title: 'Same' } },
        'Creating.',
      ),
      callTool('request', { method: 'POST', path: '/api/alpha-shop/suites', body: { title: 'Same' } }),
      callTool('finish', {
        summary: 'Created two suites.',
        created: [
          { type: 'suite', id: 101 },
          { type: 'suite', id: 102 },
        ],
      }),
    ]);
    const second = toolCalls(entries).filter((entry) => entry.name === 'request')[1];
    expect(second).toMatchObject({
      outcome: 'error',
      data: { result: { status: 409, category: 'conflict' } },
    });
    expect(result.verified.map((item) => item.target)).toEqual(['101']);
    expect(result.dropped.map((entry) => entry.claim.target)).toEqual(['102']);
  });

  it('a type with no creating endpoint ends with stop, not a substitute', async () => {
    const { result, seen } = await fishWithScript('Please create two widgets for me', [
      callTool(
        'stop',
        { reason: 'No captured endpoint creates widgets; I will not substitute another type.' },
        'Checking.',
      ),
    ]);
    expect(result).toMatchObject({ endingReason: 'stopped', status: 'failed', tier: 'model' });
    expect(result.escalation).toMatch(/no captured endpoint creates "widgets"/);
    expect(seen.filter((request) => request.method === 'POST' && request.path.startsWith('/api/'))).toEqual(
      [],
    );
  });
});
