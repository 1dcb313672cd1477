import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailOpen } from '../../src/core/fail-open.js';
import { invokeTool } from '../../src/core/invoke-tool.js';
import { createRedactor, REDACTED } from '../../src/core/redact.js';
import { loadCaptures } from '../../src/packs/http/captures/load-captures.js';
import { redactHar } from '../../src/packs/http/captures/redact-har.js';
import { ApiClient } from '../../src/packs/http/client/api-client.js';
import { CaptureIndex } from '../../src/packs/http/endpoints/capture-index.js';
import { resolveScope } from '../../src/packs/http/endpoints/scope.js';
import { requestTool } from '../../src/packs/http/tools/request-tool.js';
import { tempDir, tempLedger } from '../helpers.js';
import { harEntry, writeHar } from '../packs/http/har-fixtures.js';

// Issue 19, item 5 leftover: a protocol-relative URL (`//host/x?token=…`, as a `Location`
// header may send it) was read as a form body and stored percent-encoded (`%2F%2Fhost…`):
// it must stay a URL, its secret values redacted in place, like `http://host/x?token=…`.
describe('protocol-relative URLs stay URLs', () => {
  it('secret query and fragment values are redacted in place, other bytes kept', () => {
    const redactor = createRedactor();
    expect(redactor.redact('//h/api/x?token=abcdefgh&page=2')).toBe(`//h/api/x?token=${REDACTED}&page=2`);
    expect(redactor.redact('//h:8443/cb#access_token=ImplicitTok1&state=1')).toBe(
      `//h:8443/cb#access_token=${REDACTED}&state=1`,
    );
    // Resolved against a page, it is still the same host, path and other parameters.
    const url = new URL(redactor.redact('//h/api/x?api_key=K3Y-VALUE-2&n=1'), 'https://page.example/');
    expect([url.origin, url.pathname, url.searchParams.get('n'), url.searchParams.get('api_key')]).toEqual([
      'https://h',
      '/api/x',
      '1',
      REDACTED,
    ]);
    // What it held is remembered: an echo elsewhere is scrubbed.
    expect(redactor.redact('saw abcdefgh and K3Y-VALUE-2')).toBe(`saw ${REDACTED} and ${REDACTED}`);
  });

  it('a userinfo password is stripped and remembered; a user alone stays', () => {
    const redactor = createRedactor();
    expect(redactor.redact('//admin:UserInfoPw9@h/x?y=1')).toBe('//admin@h/x?y=1');
    expect(redactor.redact('//admin@h/x')).toBe('//admin@h/x');
    expect(redactor.redact('login with UserInfoPw9 failed')).toBe(`login with ${REDACTED} failed`);
  });

  it('a `//` path without a secret is left byte for byte', () => {
    const redactor = createRedactor();
    for (const text of ['//h/x?page=2&sort=a%20b', '//h/x#top', '//cdn.example/lib.js?v=3'])
      expect(redactor.redact(text)).toBe(text);
  });
});

describe('a protocol-relative Location header in the evidence', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(201, {
          'content-type': 'application/json',
          location: `//127.0.0.1:${port}/api/items/7?token=LocTokenSecret1&view=full`,
        });
        response.end(JSON.stringify({ id: 7, title: 'x' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('the request tool’s ledger entry keeps the location a URL with the token redacted', async () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'test', task: 'create an item' });
    const failOpen: FailOpen = () => undefined;
    const tool = requestTool({
      client: new ApiClient({ baseUrl: `http://127.0.0.1:${port}` }),
      index: new CaptureIndex([]),
      scope: resolveScope(undefined, []),
    });
    const call = await invokeTool(
      tool,
      { method: 'POST', path: '/api/items', body: { title: 'x' } },
      {
        recorder,
        failOpen,
      },
    );
    expect(call.outcome).toBe('ok');
    const stored = JSON.stringify(recorder.entries());
    expect(stored).toContain(`//127.0.0.1:${port}/api/items/7?token=${REDACTED}&view=full`);
    expect(stored).not.toContain('LocTokenSecret1');
    expect(stored).not.toContain('%2F%2F127.0.0.1');
  });

  it('a captured HAR with such a Location is redacted in place and still loads', () => {
    const create = harEntry('POST', 'http://127.0.0.1:4010/api/alpha/suites', 201, {
      body: { title: 'S' },
      response: { id: 7, title: 'S' },
    });
    create.response.headers.push({
      name: 'Location',
      value: '//127.0.0.1:4010/api/alpha/suites/7?token=HarLocTok42',
    });
    const redacted = redactHar({ log: { entries: [create] } });
    const location = redacted.log.entries[0]?.response.headers.find((header) => header.name === 'Location');
    expect(location?.value).toBe(`//127.0.0.1:4010/api/alpha/suites/7?token=${REDACTED}`);
    const path = writeHar(tempDir(), 'captured.har', redacted.log.entries);
    expect(readFileSync(path, 'utf8')).not.toContain('HarLocTok42');
    const loaded = loadCaptures([path]);
    expect(loaded.captures.map((capture) => `${capture.method} ${capture.path}`)).toEqual([
      'POST /api/alpha/suites',
    ]);
  });
});
