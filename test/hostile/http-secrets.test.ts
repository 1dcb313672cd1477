import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prepareData } from '../../src/agents/fisherman/prepare-data.js';
import { createRedactor } from '../../src/core/redact.js';
import { DEMO_PASSWORD } from '../../src/demo-app/server.js';
import { DEMO_LOGIN } from '../../src/packs/http/client/login-recipe.js';
import { callTool, scriptedModel } from '../../src/testing/scripted-model.js';
import { runTally, tempLedger } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

/** Everything SQLite holds on disk for this ledger: the database and its write-ahead log. */
function ledgerBytes(path: string): string {
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

describe('values the harness knows are secret never reach the ledger or the output', () => {
  it('a model echoing the password, the CSRF token and the session cookie in a body and a reason leaves none of them on disk', async () => {
    const { app, seen } = await demoApp();
    const ledger = tempLedger();
    const apiKey = 'configured-api-key-0042';
    const live: { csrf?: string; cookie?: string } = {};
    const model = scriptedModel([
      callTool('lookup', { path: '/api/alpha-shop/suites' }, 'Looking first.'),
      callTool('plan', { entities: [{ type: 'suite', count: 1 }] }),
      () => {
        // The model "saw" the session's values: it echoes them where no secret name guards them.
        const last = seen.at(-1);
        live.csrf = String(last?.headers['x-csrf-token']);
        live.cookie = String(last?.headers.cookie).split('=')[1];
        return {
          text: 'Creating.',
          toolCalls: [
            {
              toolName: 'request',
              input: {
                method: 'POST',
                path: '/api/alpha-shop/suites',
                body: { title: `Echo ${DEMO_PASSWORD} ${live.csrf} ${live.cookie} ${apiKey}` },
              },
            },
          ],
        };
      },
      () => ({
        toolCalls: [
          { toolName: 'stop', input: { reason: `Login used ${DEMO_PASSWORD}; token ${live.csrf}` } },
        ],
      }),
    ]);
    const result = await prepareData({
      request: 'Please set up an echo suite',
      captures: [BUNDLED_HAR],
      scope: '/projects/alpha-shop',
      baseUrl: app.url,
      login: DEMO_LOGIN,
      headers: { 'x-tenant-key': apiKey },
      ledger,
      model,
      env: {},
    });
    model.assertComplete();
    expect(live.csrf).toMatch(/^[0-9a-f]{36}$/);
    expect(live.cookie).toMatch(/^[0-9a-f]{36}$/);
    // The app really received and stored the echo: the secrets were in the request body.
    const posted = ledger.entries(result.runId).find((entry) => entry.name === 'request');
    expect(posted?.outcome).toBe('ok');
    expect(JSON.stringify(posted?.data)).toContain('Echo [redacted] [redacted] [redacted] [redacted]');
    const secrets = [DEMO_PASSWORD, live.csrf as string, live.cookie as string, apiKey];

    ledger.flush();
    const whileOpen = ledgerBytes(ledger.path);
    expect(whileOpen).toContain(result.runId); // the files really are the run's
    for (const secret of secrets) expect(whileOpen).not.toContain(secret);
    for (const secret of secrets) expect(JSON.stringify(result)).not.toContain(secret);

    ledger.close();
    for (const secret of secrets) expect(ledgerBytes(ledger.path)).not.toContain(secret);
    const shown = await runTally(['runs', 'show', result.runId, '--json', '--ledger', ledger.path]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('[redacted]');
    for (const secret of secrets) expect(shown.stdout).not.toContain(secret);
  }, 30_000);

  it('remember() scrubs a registered value anywhere, encoded too, but ignores short values that would scrub ids', () => {
    const redactor = createRedactor({ knownSecrets: ['s3cret value!'] });
    redactor.remember('12345');
    expect(redactor.redact({ note: 'pw s3cret value! end', form: 'q=s3cret%20value!', id: '12345' })).toEqual(
      {
        note: 'pw [redacted] end',
        form: 'q=[redacted]',
        id: '12345',
      },
    );
  });
});
