import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR } from '../packs/http/har-fixtures.js';

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
