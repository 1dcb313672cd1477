import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, harEntry, writeHar } from '../packs/http/har-fixtures.js';
import { json, localServer } from '../packs/http/local-server.js';

// Any request reaching this server is a failure: a bad header must be refused before one is sent.
let hits = 0;
const server = createServer((_request, response) => {
  hits += 1;
  response.writeHead(500).end();
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fish = (...extra: string[]) =>
  runTally([
    'fish',
    '1 suite',
    '--captures',
    BUNDLED_HAR,
    '--base-url',
    url,
    '--scope',
    '/projects/alpha-shop',
    ...extra,
  ]);

describe('a bad --header is a usage error before any request, and its value is never echoed', () => {
  it('no colon (the typo a token sits in): exit 2, the token nowhere in the output', async () => {
    for (const flags of [
      ['--header', 'Authorization Bearer CLISECRET4242'],
      ['--header', 'Cookie=sid=COOKIESECRET9876', '--json'],
    ]) {
      const run = await fish(...flags);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr + run.stdout).not.toMatch(/CLISECRET4242|COOKIESECRET9876/);
      expect(run.stderr + run.stdout).toMatch(/HEADER_INVALID|is not "Name: value"/);
    }
    expect(hits).toBe(0);
  });

  it('a name node:http refuses, or a value with a line break: exit 2, nothing sent', async () => {
    for (const header of ['Bad Name: x', 'X-Ok: one\r\nInjected: two']) {
      const run = await fish('--header', header);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/not a header name|no header can carry/);
    }
    expect(hits).toBe(0);
  });

  it('TALLY_FISH_HEADERS with a line that is not a header: refused, the line not shown', async () => {
    const spec = join(tempDir(), 'api.json');
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'suites', version: '1' },
        paths: {
          '/suites': {
            post: {
              requestBody: {
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { title: { type: 'string' } } },
                  },
                },
              },
              responses: { '201': { description: 'created' } },
            },
          },
        },
      }),
    );
    const run = await runTally(['fish', '1 suite', '--spec', spec, '--base-url', url], {
      env: { TALLY_FISH_HEADERS: 'Authorization Bearer ENVSECRET77' },
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/TALLY_FISH_HEADERS .*is not "Name: value"/);
    expect(run.stderr + run.stdout).not.toContain('ENVSECRET77');
    expect(hits).toBe(0);
  });
});

describe('configured headers reach the server in replicate (HAR) mode, and never the ledger or output', () => {
  it('TALLY_FISH_HEADERS and --header both go with every request; their values are nowhere on disk or screen', async () => {
    // The app echoes them back, as a debugging endpoint would: the echo must be scrubbed too.
    const api = await localServer((seen, response) =>
      json(response, 201, {
        id: 7,
        title: 'x',
        echo: `${seen.headers['x-env-key']} ${seen.headers['x-flag-key']}`,
      }),
    );
    try {
      const dir = tempDir();
      const har = writeHar(dir, 'session.har', [
        harEntry('POST', `${api.url}/api/suites`, 201, {
          body: { title: 'Checkout' },
          response: { id: 1, title: 'Checkout' },
        }),
      ]);
      const ledger = join(dir, 'ledger.db');
      const run = await runTally(
        [
          'fish',
          '1 suite',
          '--captures',
          har,
          '--base-url',
          api.url,
          '--header',
          'X-Flag-Key: FLAGSECRET5150',
          '--json',
        ],
        { env: { TALLY_FISH_HEADERS: 'X-Env-Key: ENVSECRET8086\nX-Tenant: acme', TALLY_LEDGER: ledger } },
      );
      expect(run.code, run.stderr).toBe(0);
      const post = api.seen.find((seen) => seen.method === 'POST');
      expect(post?.headers).toMatchObject({
        'x-env-key': 'ENVSECRET8086',
        'x-flag-key': 'FLAGSECRET5150',
        'x-tenant': 'acme',
      });
      const runId = (JSON.parse(run.stdout) as { runId: string }).runId;
      const shown = await runTally(['runs', 'show', runId, '--json', '--ledger', ledger]);
      expect(shown.code, shown.stderr).toBe(0);
      const onDisk = [ledger, `${ledger}-wal`]
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file).toString('latin1'))
        .join('');
      for (const text of [run.stdout, run.stderr, shown.stdout, onDisk]) {
        expect(text).not.toContain('ENVSECRET8086');
        expect(text).not.toContain('FLAGSECRET5150');
      }
    } finally {
      await api.close();
    }
  });

  it('a bad TALLY_FISH_HEADERS line is a usage error in replicate mode too, nothing sent', async () => {
    const before = hits;
    const bad = await runTally(
      ['fish', '1 suite', '--captures', BUNDLED_HAR, '--base-url', url, '--scope', '/projects/alpha-shop'],
      { env: { TALLY_FISH_HEADERS: 'Authorization Bearer ENVSECRET77' } },
    );
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toMatch(/TALLY_FISH_HEADERS .*is not "Name: value"/);
    expect(bad.stderr + bad.stdout).not.toContain('ENVSECRET77');
    expect(hits).toBe(before);
  });
});
