import { describe, expect, it } from 'vitest';
import { parseDataRequest } from '../../../src/agents/fisherman/parse-data-request.js';
import { type PrepareDataOptions, prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import type { DemoApp } from '../../../src/demo-app/server.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from '../../packs/http/demo-fixtures.js';
import { latencyProxy } from '../../packs/http/latency-proxy.js';

function fish(baseUrl: string, ledger: Ledger, request: string, extra: Partial<PrepareDataOptions> = {}) {
  return prepareData({
    request,
    captures: [BUNDLED_HAR],
    scope: '/projects/alpha-shop',
    baseUrl,
    login: DEMO_LOGIN,
    ledger,
    env: {},
    ...extra,
  });
}

function seedSuite(app: DemoApp, id: number, project = 'alpha-shop'): void {
  app.store.suites.set(id, {
    id,
    project,
    title: `Seeded ${id}`,
    description: '',
    position: app.store.suites.size + 1,
    created_at: new Date().toISOString(),
  });
  app.store.nextId.suite = Math.max(app.store.nextId.suite, id + 1);
}

const apiWrites = (seen: { method: string; path: string }[]) =>
  seen.filter((request) => request.method !== 'GET' && request.path.startsWith('/api/'));

describe('grammar breadth', () => {
  it.each([
    ['5 tests in suite 101', { count: 5, type: 'tests', parent: { type: 'suite', id: '101' } }],
    ['twelve tests', { count: 12, type: 'tests' }],
    ['a dozen tests in suite #7', { count: 12, type: 'tests', parent: { type: 'suite', id: '7' } }],
    [
      'twenty suites with fifteen tests each',
      { count: 20, type: 'suites', children: { count: 15, type: 'tests' } },
    ],
  ])('parses "%s"', (text, expected) => {
    expect(parseDataRequest(text)).toEqual(expected);
  });

  it.each([
    ['create 3 suites', { count: 3, type: 'suites' }],
    [
      'Please make 2 suites with 2 tests apiece for me',
      { count: 2, type: 'suites', children: { count: 2, type: 'tests' } },
    ],
    ['can you add 3 tests to suite 101?', { count: 3, type: 'tests', parent: { type: 'suite', id: '101' } }],
    ['I need 4 suites, thanks', { count: 4, type: 'suites' }],
    ['3 suites and 2 tests in each', { count: 3, type: 'suites', children: { count: 2, type: 'tests' } }],
  ])('reads "%s": words that only ask for the request change nothing', (text, expected) => {
    expect(parseDataRequest(text)).toEqual(expected);
  });

  it.each(['delete 3 suites', 'create 3 suites and delete 1', 'update 2 suites'])(
    'leaves "%s" (another action) to the model',
    (text) => {
      expect(parseDataRequest(text)).toBeUndefined();
    },
  );

  it('leaves "3 tests in suite" (a parent with no id) to the model', () => {
    expect(parseDataRequest('3 tests in suite')).toBeUndefined();
  });

  it.each([
    ['10 tests in a new suite', { count: 1, type: 'suite', children: { count: 10, type: 'tests' } }],
    ['3 tests under a new suite', { count: 1, type: 'suite', children: { count: 3, type: 'tests' } }],
    ['3 suites (3 tests each)', { count: 3, type: 'suites', children: { count: 3, type: 'tests' } }],
    ['3 suites (with 2 tests each)', { count: 3, type: 'suites', children: { count: 2, type: 'tests' } }],
    ['3 suites: 3 tests each', { count: 3, type: 'suites', children: { count: 3, type: 'tests' } }],
    ['10 tests in suite 101', { count: 10, type: 'tests', parent: { type: 'suite', id: '101' } }],
  ])('plans "%s" as the structure it words, the one the contract reads', (text, expected) => {
    expect(parseDataRequest(text)).toEqual(expected);
  });

  it.each(['tests in a new suite', '10 tests in a suite', '10 tests in 2 new suites', '3 suites (3 tests)'])(
    'leaves "%s" (no count, or not said which suite or how many each) to the model',
    (text) => {
      expect(parseDataRequest(text)).toBeUndefined();
    },
  );
});

describe('deterministic breadth against the demo app', () => {
  it('"3 tests" with no suite in the project creates the suite they need, never the captured suite id', async () => {
    const { app, seen } = await demoApp();
    // A suite in ANOTHER project with the id the capture used must not be touched.
    seedSuite(app, 101, 'beta-blog');
    const ledger = tempLedger();
    const result = await fish(app.url, ledger, '3 tests');
    expect(result).toMatchObject({ status: 'success', tier: 'deterministic' });
    const suite = [...app.store.suites.values()].find((candidate) => candidate.project === 'alpha-shop');
    expect(suite).toBeDefined();
    expect(result.summary).toContain(`no suite existed, so suite ${suite?.id} was created for the tests`);
    const tests = [...app.store.tests.values()];
    expect(tests).toHaveLength(3);
    expect(tests.every((test) => test.suite_id === suite?.id)).toBe(true);
    expect(result.verified.map((item) => item.type)).toEqual(['suite', 'test', 'test', 'test']);
    expect(apiWrites(seen)).toHaveLength(4);
  });

  it('"3 tests" with a suite already there puts them in it and says it was found by a lookup', async () => {
    const { app, seen } = await demoApp();
    seedSuite(app, 140);
    const ledger = tempLedger();
    const result = await fish(app.url, ledger, 'three tests');
    expect(result.status).toBe('success');
    expect(result.summary).toContain(
      'the tests went into the existing suite 140 (found by GET /api/alpha-shop/suites; no suite was named)',
    );
    expect([...app.store.tests.values()].map((test) => test.suite_id)).toEqual([140, 140, 140]);
    expect(apiWrites(seen).map((request) => request.path)).toEqual(Array(3).fill('/api/alpha-shop/tests'));
    expect(result.verified.map((item) => item.type)).toEqual(['test', 'test', 'test']);
  });

  it('"5 tests in suite 101" checks the suite exists, then links every test to it', async () => {
    const { app, seen } = await demoApp();
    seedSuite(app, 101);
    const ledger = tempLedger();
    const result = await fish(app.url, ledger, '5 tests in suite 101');
    expect(result.status).toBe('success');
    expect(result.summary).toContain('the tests went into the existing suite 101');
    expect([...app.store.tests.values()].map((test) => test.suite_id)).toEqual(Array(5).fill(101));
    expect(
      seen.some((request) => request.method === 'GET' && request.path === '/api/alpha-shop/suites/101'),
    ).toBe(true);
    expect(apiWrites(seen)).toHaveLength(5);
  });

  it('"10 tests in a new suite" makes one suite for them even where a suite exists; the run is held to that', async () => {
    const { app, seen } = await demoApp();
    // "3 tests" alone would go into this suite; "in a new suite" must not.
    seedSuite(app, 140);
    const ledger = tempLedger();
    const result = await fish(app.url, ledger, '10 tests in a new suite');
    expect(result).toMatchObject({ status: 'success', tier: 'deterministic', unmet: [] });
    expect(result.contract?.description).toBe('1 suite with 10 tests');
    const made = [...app.store.suites.values()].filter((suite) => suite.id !== 140);
    expect(made).toHaveLength(1);
    expect([...app.store.tests.values()].map((test) => test.suite_id)).toEqual(Array(10).fill(made[0]?.id));
    expect(result.verified.map((item) => item.type)).toEqual(['suite', ...Array(10).fill('test')]);
    expect(apiWrites(seen)).toHaveLength(11);
  });

  it.each([
    ['3 suites (3 tests each)', 3, '3 suites, each with 3 tests'],
    ['3 suites (with 2 tests each)', 2, '3 suites, each with 2 tests'],
    ['3 suites: 2 tests each', 2, '3 suites, each with 2 tests'],
  ])('"%s": the bracketed children of every suite, planned and met', async (request, tests, contract) => {
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    const result = await fish(app.url, ledger, request);
    expect(result).toMatchObject({ status: 'success', tier: 'deterministic', unmet: [] });
    expect(result.contract?.description).toBe(contract);
    expect(app.store.suites.size).toBe(3);
    for (const suite of app.store.suites.values())
      expect([...app.store.tests.values()].filter((test) => test.suite_id === suite.id)).toHaveLength(tests);
    expect(apiWrites(seen)).toHaveLength(3 + 3 * tests);
  });

  it('"5 tests in a new suite called Checkout" is held to the title: without a model, says so and makes nothing', async () => {
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    await expect(fish(app.url, ledger, '5 tests in a new suite called Checkout')).rejects.toMatchObject({
      code: 'FISHERMAN_NEEDS_MODEL',
      message: expect.stringMatching(/names titles, which only the model tier sets/),
    });
    expect(apiWrites(seen)).toEqual([]);
  });

  it('"5 tests in suite 999" (no such suite here) creates nothing and says why', async () => {
    const { app, seen } = await demoApp();
    seedSuite(app, 999, 'beta-blog');
    const ledger = tempLedger();
    const result = await fish(app.url, ledger, '5 tests in suite 999');
    expect(result.status).not.toBe('success');
    expect(result.summary).toMatch(/suite 999 cannot be used: GET \/api\/alpha-shop\/suites\/999 → 404/);
    expect(apiWrites(seen)).toEqual([]);
    expect(app.store.tests.size).toBe(0);
  });

  it('a --scope that matches nothing is refused before any request, instead of creating elsewhere', async () => {
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    await expect(fish(app.url, ledger, '2 suites', { scope: '/projects/gamma-shop' })).rejects.toMatchObject({
      code: 'FISHERMAN_SCOPE_UNMATCHED',
      message: expect.stringMatching(
        /Scope "\/projects\/gamma-shop" matches no known write endpoint.*Pass a --scope/,
      ),
    });
    expect(apiWrites(seen)).toEqual([]);
    expect(app.store.suites.size).toBe(0);
  });

  it.each([1, 4])(
    'concurrency %i: at most that many creates in flight, children after their parents, request met',
    async (concurrency) => {
      const { app } = await demoApp();
      // 15 ms of latency per request, as a real network and database would add.
      const proxy = await latencyProxy(app.url, 15);
      const ledger = tempLedger();
      const result = await fish(proxy.url, ledger, '4 suites with 3 tests each', { concurrency });
      expect(result).toMatchObject({ status: 'success', unmet: [] });
      expect(result.verified).toHaveLength(16);
      // Items are listed in plan order whatever order the responses came in.
      expect(result.verified.map((item) => item.type)).toEqual(
        Array(4).fill(['suite', 'test', 'test', 'test']).flat(),
      );
      for (const suite of app.store.suites.values())
        expect([...app.store.tests.values()].filter((test) => test.suite_id === suite.id)).toHaveLength(3);
      if (concurrency === 1) expect(proxy.stats.most).toBe(1);
      else expect(proxy.stats.most).toBe(concurrency);
    },
  );
});
