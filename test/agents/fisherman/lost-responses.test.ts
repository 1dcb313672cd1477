import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { callTool, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from '../../packs/http/demo-fixtures.js';

const proxies: Server[] = [];
afterEach(async () => {
  while (proxies.length > 0) {
    const proxy = proxies.pop() as Server;
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  }
});

type Fault = 'lose-after-forward' | 'fail-before-forward' | 'reset-after-forward';

/**
 * A proxy in front of the app that, for the nth POST to a path, makes the response get lost:
 * the app acted (or, with fail-before-forward, never saw it), the client never sees an id.
 */
async function faultyProxy(target: string, rule: { path: RegExp; nth: number; fault: Fault }) {
  const upstream = new URL(target);
  let matched = 0;
  const server = createServer((incoming, outgoing) => {
    const hit = incoming.method === 'POST' && rule.path.test(incoming.url ?? '') && ++matched === rule.nth;
    if (hit && rule.fault === 'fail-before-forward') {
      incoming.resume();
      outgoing.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
      return;
    }
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (response) => {
        if (!hit) {
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(outgoing);
          return;
        }
        response.resume();
        if (rule.fault === 'reset-after-forward') outgoing.socket?.destroy();
        else outgoing.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxies.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const fish = (baseUrl: string, ledger: Ledger, request: string, extra = {}) =>
  prepareData({
    request,
    captures: [BUNDLED_HAR],
    scope: '/projects/alpha-shop',
    baseUrl,
    login: DEMO_LOGIN,
    ledger,
    ...extra,
  });

describe('lost responses', () => {
  it.each(['lose-after-forward', 'reset-after-forward'] as const)(
    'a create whose response was lost (%s) is found by its marker and verified as reconciled',
    async (fault) => {
      const { app } = await demoApp();
      const url = await faultyProxy(app.url, { path: /\/tests$/, nth: 2, fault });
      const ledger = tempLedger();
      const result = await fish(url, ledger, '1 suite with 3 tests each');
      expect(result.status).toBe('success');
      expect(app.store.tests.size).toBe(3);
      expect(result.verified).toHaveLength(4);
      const reconciled = result.verified.filter((item) => item.reconciled);
      expect(reconciled).toHaveLength(1);
      expect(reconciled[0]?.via).toMatch(
        /^POST \/api\/alpha-shop\/tests → (502|no response) \(response lost\), found by GET \/api\/alpha-shop\/tests → 200$/,
      );
      // What the world holds: every reported id exists, linked to the suite this run made.
      const suite = result.verified.find((item) => item.type === 'suite');
      for (const item of result.verified.filter((entry) => entry.type === 'test'))
        expect(app.store.tests.get(Number(item.target))?.suite_id).toBe(Number(suite?.target));
    },
  );

  it('without an item carrying the marker, the outcome stays unknown and the run is not a success', async () => {
    const { app } = await demoApp();
    const url = await faultyProxy(app.url, { path: /\/tests$/, nth: 1, fault: 'fail-before-forward' });
    const ledger = tempLedger();
    const result = await fish(url, ledger, '1 suite with 2 tests each');
    expect(result.status).not.toBe('success');
    expect(result.summary).toContain(
      "POST /api/alpha-shop/tests → 502: Bad Gateway (the response was lost and no item with this run's marker was found: the outcome is unknown)",
    );
  });

  it('the model tier: a lookup after a lost create gives the id back, and the claim is verified with both calls as via', async () => {
    const { app } = await demoApp();
    const url = await faultyProxy(app.url, { path: /\/suites$/, nth: 1, fault: 'lose-after-forward' });
    const ledger = tempLedger();
    let marker = '';
    const model = scriptedModel([
      callTool('plan', { entities: [{ type: 'suite', count: 1 }] }),
      (call) => {
        const system = call.prompt.find((message) => message.role === 'system')?.content;
        marker = /End every title or name you send with " · ([0-9a-f]{6})"/.exec(String(system))?.[1] ?? '';
        return {
          toolCalls: [
            {
              toolName: 'request',
              input: { method: 'POST', path: '/api/alpha-shop/suites', body: { title: `Smoke · ${marker}` } },
            },
          ],
        };
      },
      callTool('lookup', { path: '/api/alpha-shop/suites' }),
      () => ({
        toolCalls: [
          {
            toolName: 'finish',
            input: {
              summary: 'Made the suite.',
              created: [
                { type: 'suite', id: String([...app.store.suites.keys()][0]), title: `Smoke · ${marker}` },
              ],
            },
          },
        ],
      }),
    ]);
    const result = await fish(url, ledger, 'please make one smoke suite', { model });
    model.assertComplete();
    expect(marker).toMatch(/^[0-9a-f]{6}$/);
    expect(result.status).toBe('success');
    expect(result.verified).toEqual([
      expect.objectContaining({
        type: 'suite',
        reconciled: true,
        via: 'POST /api/alpha-shop/suites → 502 (response lost), found by GET /api/alpha-shop/suites → 200',
      }),
    ]);
  });
});
