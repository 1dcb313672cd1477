import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupRun } from '../../../src/agents/fisherman/cleanup-run.js';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { ApiClient } from '../../../src/packs/http/client/api-client.js';
import { DEMO_LOGIN, logIn } from '../../../src/packs/http/client/login-recipe.js';
import { runTally, tempDir, tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from '../../packs/http/demo-fixtures.js';

const proxies: Server[] = [];
afterEach(async () => {
  while (proxies.length > 0) {
    const proxy = proxies.pop() as Server;
    await new Promise((resolve) => proxy.close(resolve));
  }
});

/** An app that answers 403 where the demo app says 404 (many real apps hide what does not exist). */
async function forbiddenForMissing(target: string): Promise<{ url: string; methods: string[] }> {
  const methods: string[] = [];
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    methods.push(`${incoming.method} ${incoming.url}`);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (response) => {
        const status = response.statusCode === 404 ? 403 : (response.statusCode ?? 502);
        outgoing.writeHead(status, response.headers);
        response.pipe(outgoing);
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxies.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, methods };
}

const fish = (baseUrl: string, ledger: Ledger, request: string) =>
  prepareData({
    request,
    captures: [BUNDLED_HAR],
    scope: '/projects/alpha-shop',
    baseUrl,
    login: DEMO_LOGIN,
    ledger,
  });

const clean = (baseUrl: string, ledger: Ledger, runId: string) =>
  cleanupRun({ runId, ledger, captures: [BUNDLED_HAR], baseUrl, login: DEMO_LOGIN });

describe('cleanup', () => {
  it('confirms deletions on an app that answers 403 for a missing item, and a repeat finds everything already gone', async () => {
    const { app } = await demoApp();
    const proxy = await forbiddenForMissing(app.url);
    const ledger = tempLedger();
    const made = await fish(proxy.url, ledger, '2 suites with 3 tests each');
    expect(made.status).toBe('success');

    const first = await clean(proxy.url, ledger, made.runId);
    expect(first.deletions.map((deletion) => deletion.outcome)).toEqual(Array(8).fill('deleted'));
    expect(
      first.deletions.every((deletion) => deletion.beforeStatus === 200 && deletion.confirmStatus === 403),
    ).toBe(true);
    expect(first.status).toBe('success');
    expect(first.summary).toMatch(/^Cleaned 8 of 8 resources .*: 8 deleted and confirmed, 0 already gone/);
    expect(app.store.suites.size + app.store.tests.size).toBe(0);

    const deletesBefore = proxy.methods.filter((line) => line.startsWith('DELETE')).length;
    const second = await clean(proxy.url, ledger, made.runId);
    expect(second.deletions.map((deletion) => deletion.outcome)).toEqual(Array(8).fill('already-gone'));
    expect(second.status).toBe('success');
    expect(second.summary).toMatch(/^Cleaned 8 of 8 .*: 0 deleted and confirmed, 8 already gone/);
    expect(proxy.methods.filter((line) => line.startsWith('DELETE')).length).toBe(deletesBefore);
  });

  it('deletes exactly what the run created: an item already gone counts as cleaned, other data stays', async () => {
    const { app } = await demoApp();
    const ledger = tempLedger();
    const before = await fish(app.url, ledger, '1 suite');
    const made = await fish(app.url, ledger, '1 suite with 2 tests in it');
    const test = made.verified.find((item) => item.type === 'test') as { target: string };
    app.store.tests.delete(Number(test.target));

    const cleanup = await clean(app.url, ledger, made.runId);
    expect(cleanup.deletions.map((deletion) => [deletion.type, deletion.outcome])).toEqual([
      ['test', 'deleted'],
      ['test', 'already-gone'],
      ['suite', 'deleted'],
    ]);
    expect(cleanup.status).toBe('success');
    // The other run's suite is untouched.
    expect([...app.store.suites.keys()]).toEqual([Number(before.verified[0]?.target)]);
  });

  it('DELETE compares the whole resource URL, not its last segment', async () => {
    const { app } = await demoApp();
    const client = new ApiClient({
      baseUrl: app.url,
      session: await logIn(app.url, DEMO_LOGIN),
      created: ['/api/alpha-shop/suites/101'],
    });
    for (const path of [
      '/api/alpha-shop/tests/101',
      '/api/beta-labs/suites/101',
      '/api/alpha-shop/suites/1011',
    ]) {
      await expect(client.send({ method: 'DELETE', path }), path).rejects.toMatchObject({
        code: 'DELETE_REFUSED',
      });
    }
    // The same resource spelled with a trailing slash is the same URL: allowed (404: it does not exist).
    await expect(
      client.send({ method: 'DELETE', path: '/api/alpha-shop/suites/101/' }),
    ).resolves.toMatchObject({
      status: 404,
    });
  });

  it('`tally fish cleanup RUN RUN --json` cleans several runs and honours its own flags', async () => {
    const { app } = await demoApp();
    const cwd = tempDir();
    const fishRun = async (request: string) => {
      const made = await runTally(
        [
          'fish',
          request,
          '--captures',
          BUNDLED_HAR,
          '--base-url',
          app.url,
          '--scope',
          '/projects/alpha-shop',
          '--login',
          'demo',
          '--json',
        ],
        { cwd },
      );
      expect(made.code).toBe(0);
      return JSON.parse(made.stdout).runId as string;
    };
    const first = await fishRun('1 suite');
    const second = await fishRun('1 suite with 1 test in it');
    const cleanup = await runTally(['fish', 'cleanup', first, second, '--login', 'demo', '--json'], { cwd });
    expect(cleanup.stderr).toBe('');
    expect(cleanup.code).toBe(0);
    expect(JSON.parse(cleanup.stdout)).toMatchObject([
      { cleanedRunId: first, status: 'success', deletions: [{ type: 'suite', outcome: 'deleted' }] },
      {
        cleanedRunId: second,
        status: 'success',
        deletions: [
          { type: 'test', outcome: 'deleted' },
          { type: 'suite', outcome: 'deleted' },
        ],
      },
    ]);
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
  });
});

describe('cleanup of creates the ledger never saw (an outage, an interrupt)', () => {
  it('deletes them children first: a suite and its test found only by the marker, without a 409', async () => {
    const { app } = await demoApp();
    const ledger = tempLedger();
    const made = await fish(app.url, ledger, '1 suite with 1 test');
    expect(made.status).toBe('success');
    const marker = (ledger.getRun(made.runId).run.meta as { marker: string }).marker;
    // Sent during the run, answered by the app, but never recorded: only the marker finds them.
    const client = new ApiClient({ baseUrl: app.url, session: await logIn(app.url, DEMO_LOGIN) });
    const suite = await client.send({
      method: 'POST',
      path: '/api/alpha-shop/suites',
      body: { title: `Suite 2 · ${marker}`, description: '' },
    });
    const suiteId = (suite.body as { data?: { id?: number } }).data?.id ?? (suite.body as { id?: number }).id;
    const test = await client.send({
      method: 'POST',
      path: '/api/alpha-shop/tests',
      body: { title: `Test 2 · ${marker}`, suite_id: suiteId },
    });
    expect([suite.status, test.status]).toEqual([201, 201]);
    const result = await clean(app.url, ledger, made.runId);
    expect(result.deletions.filter((deletion) => !deletion.ok)).toEqual([]);
    const order = result.deletions.map(
      (deletion) => `${deletion.type}${deletion.foundBy ? ' (marker)' : ''}`,
    );
    // Each test before the suites: the unrecorded test ahead of the unrecorded suite.
    expect(order.indexOf('test (marker)')).toBeLessThan(order.indexOf('suite (marker)'));
    expect(result.status).toBe('success');
  });
});
