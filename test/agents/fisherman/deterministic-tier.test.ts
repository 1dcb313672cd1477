import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { cleanupRun } from '../../../src/agents/fisherman/cleanup-run.js';
import { parseDataRequest } from '../../../src/agents/fisherman/parse-data-request.js';
import { type PrepareDataOptions, prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import type { RunEvent } from '../../../src/core/agent/run-observer.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from '../../packs/http/demo-fixtures.js';

/** Fisherman on the bundled HAR, scoped to alpha-shop, with a live demo login. */
function fishDemo(baseUrl: string, ledger: Ledger, request: string, extra: Partial<PrepareDataOptions> = {}) {
  return prepareData({
    request,
    captures: [BUNDLED_HAR],
    scope: '/projects/alpha-shop',
    baseUrl,
    login: DEMO_LOGIN,
    ledger,
    ...extra,
  });
}

describe('request grammar', () => {
  it.each([
    ['2 suites with 3 tests each', { count: 2, type: 'suites', children: { count: 3, type: 'tests' } }],
    ['a suite with two tests in it', { count: 1, type: 'suite', children: { count: 2, type: 'tests' } }],
    ['3 milestones', { count: 3, type: 'milestones' }],
    ['10 test cases.', { count: 10, type: 'test cases' }],
  ])('parses "%s"', (text, expected) => {
    expect(parseDataRequest(text)).toEqual(expected);
  });

  it.each(['make me some suites', 'suites with tests', '0 suites', '2 suites and 3 tests'])(
    'leaves "%s" to the model',
    (text) => {
      expect(parseDataRequest(text)).toBeUndefined();
    },
  );
});

describe('deterministic tier against the demo app (captures recorded on another port)', () => {
  it('a run handed its observer starts no AsyncLocalStorage scope; the session secrets are still scrubbed (issue 22)', async () => {
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    const events: RunEvent[] = [];
    const scoped = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    try {
      const result = await fishDemo(app.url, ledger, '1 suite with 2 tests', {
        onEvent: (event) => events.push(event),
      });
      expect(result).toMatchObject({ status: 'success', tier: 'deterministic' });
      expect(scoped).not.toHaveBeenCalled();
      const entries = ledger.entries(result.runId);
      expect(events.flatMap((event) => (event.type === 'entry' ? [event.entry.kind] : []))).toEqual(
        entries.map((entry) => entry.kind),
      );
      // The live session's values (cookie, CSRF token) are known secrets: nowhere in what was kept or told.
      const write = seen.find((request) => request.method === 'POST' && request.path.startsWith('/api/'));
      const session = /demo_sid=([^;]+)/.exec(String(write?.headers.cookie))?.[1];
      const csrf = String(write?.headers['x-csrf-token']);
      expect(session?.length).toBeGreaterThan(4);
      expect(csrf.length).toBeGreaterThan(4);
      for (const secret of [session as string, csrf, 'demo-password']) {
        expect(JSON.stringify(entries)).not.toContain(secret);
        expect(JSON.stringify(events)).not.toContain(secret);
      }
    } finally {
      scoped.mockRestore();
    }
  });

  it('"2 suites with 3 tests each": one request per entity, all verified, children linked to their parents', async () => {
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    const result = await fishDemo(app.url, ledger, '2 suites with 3 tests each');
    expect(result).toMatchObject({ status: 'success', endingReason: 'finished', tier: 'deterministic' });
    expect(result.verified).toHaveLength(8);
    expect(result.verified.map((item) => item.via)).toEqual([
      'POST /api/alpha-shop/suites → 201',
      ...Array(3).fill('POST /api/alpha-shop/tests → 201'),
      'POST /api/alpha-shop/suites → 201',
      ...Array(3).fill('POST /api/alpha-shop/tests → 201'),
    ]);
    const writes = seen.filter((request) => request.method === 'POST' && request.path.startsWith('/api/'));
    expect(writes).toHaveLength(8);
    const suites = [...app.store.suites.values()];
    expect(suites).toHaveLength(2);
    for (const suite of suites)
      expect([...app.store.tests.values()].filter((test) => test.suite_id === suite.id)).toHaveLength(3);
    expect(new Set([...app.store.tests.values()].map((test) => test.title)).size).toBe(6);
    expect(ledger.entries(result.runId).filter((entry) => entry.kind === 'model_call')).toEqual([]);
  });

  it('a type with no creating endpoint and no model: a configuration error with the exact reason, no run, nothing created', async () => {
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    await expect(fishDemo(app.url, ledger, '2 widgets', { env: {} })).rejects.toMatchObject({
      code: 'FISHERMAN_NEEDS_MODEL',
      // "move" (POST /suites/101/move answers suite 101) acts on a suite: not a creatable type.
      message: expect.stringMatching(
        /no captured endpoint creates "widgets" in scope alpha-shop \(creatable: milestones, suites, tests\).*pass --model/,
      ),
    });
    expect(ledger.listRuns()).toEqual([]);
    expect(seen.filter((request) => request.method === 'POST' && request.path.startsWith('/api/'))).toEqual(
      [],
    );
  });

  it('"in project <the run\'s scope>" is planned without a model; another project, titles or two types say why they are not', async () => {
    const { app } = await demoApp();
    const ledger = tempLedger();
    const result = await fishDemo(app.url, ledger, '2 suites in project alpha-shop', { env: {} });
    expect(result).toMatchObject({ status: 'success', tier: 'deterministic' });
    expect(result.verified).toHaveLength(2);
    for (const [request, why] of [
      [
        '2 suites in project beta-blog',
        /names project beta-blog, which is not a segment of --scope \/projects\/alpha-shop: pass --scope/,
      ],
      [
        '2 suites in team alpha-shop',
        /names team alpha-shop, and in --scope \/projects\/alpha-shop alpha-shop is another kind of scope/,
      ],
      ['2 flaky test cases', /not of the form/],
      ['a suite called "Login" with 2 tests', /names titles, which only the model tier sets/],
      ['2 suites and 3 tests', /asks for suites, tests: the deterministic tier makes one type/],
    ] as const)
      await expect(fishDemo(app.url, ledger, request, { env: {} })).rejects.toMatchObject({
        code: 'FISHERMAN_NEEDS_MODEL',
        message: expect.stringMatching(why),
      });
    expect(ledger.listRuns()).toHaveLength(1);
  });

  it('a create that fails stops at once with the server’s reason', async () => {
    const { app } = await demoApp();
    const ledger = tempLedger();
    // beta-blog has no milestones: the captured alpha-shop example fails there.
    const result = await fishDemo(app.url, ledger, '1 milestone');
    expect(result.status).toBe('success');
    app.store.projects[0]!.milestones_enabled = false;
    const failed = await fishDemo(app.url, ledger, '1 milestone');
    expect(failed).toMatchObject({ status: 'failed', endingReason: 'tool_failure' });
    expect(failed.summary).toMatch(/creating a milestone failed: POST \/api\/alpha-shop\/milestones/);
  });

  it('cleanup deletes what the run created, children first, confirmed by a 404 read-back', async () => {
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    const made = await fishDemo(app.url, ledger, '1 suite with 2 tests in it');
    expect(made.verified).toHaveLength(3);
    const cleanup = await cleanupRun({
      runId: made.runId,
      ledger,
      captures: [BUNDLED_HAR],
      baseUrl: app.url,
      login: DEMO_LOGIN,
    });
    expect(
      cleanup.deletions.map((deletion) => [
        deletion.type,
        deletion.status,
        deletion.confirmStatus,
        deletion.ok,
      ]),
    ).toEqual([
      ['test', 204, 404, true],
      ['test', 204, 404, true],
      ['suite', 204, 404, true],
    ]);
    const deletes = seen.filter((request) => request.method === 'DELETE').map((request) => request.path);
    expect(deletes.at(-1)).toMatch(/^\/api\/alpha-shop\/suites\/\d+$/);
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
    expect(cleanup.status).toBe('success');
  });
});

describe('sessions', () => {
  it('never sends a previous session’s CSRF token or cookie from the captures', async () => {
    const { tempDir } = await import('../../helpers.js');
    const { bundledHar, writeHar } = await import('../../packs/http/demo-fixtures.js');
    const har = bundledHar();
    for (const entry of har.log.entries) {
      entry.request.headers = entry.request.headers.filter(
        (header) => !['x-csrf-token', 'Cookie'].includes(header.name),
      );
      entry.request.headers.push(
        { name: 'x-csrf-token', value: 'STALE-CSRF-FROM-YESTERDAY' },
        { name: 'Cookie', value: 'demo_sid=STALE-COOKIE' },
      );
    }
    const stale = writeHar(tempDir(), 'stale.har', har.log.entries);
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    const result = await fishDemo(app.url, ledger, '1 suite', { captures: [stale] });
    expect(result.status).toBe('success');
    const apiCalls = seen.filter((request) => request.path.startsWith('/api/'));
    expect(apiCalls.length).toBeGreaterThan(0);
    for (const call of apiCalls) {
      expect(call.headers['x-csrf-token']).not.toBe('STALE-CSRF-FROM-YESTERDAY');
      expect(String(call.headers.cookie)).not.toContain('STALE-COOKIE');
    }
    // And nothing stale reached the ledger either.
    expect(JSON.stringify(ledger.getRun(result.runId))).not.toMatch(/STALE-CSRF|STALE-COOKIE/);
  });
});
