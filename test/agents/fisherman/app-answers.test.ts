import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../../helpers.js';

/**
 * An app of suites. `idless`: creates answer 202 with no body (the item exists, only the list
 * shows its id); otherwise 201 with the item, its title stored with `·` as `-`.
 */
function suitesApp(mode: 'idless' | 'normalizing'): Server {
  const items: Record<string, unknown>[] = [];
  return createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/api/p/suites') {
        const sent = JSON.parse(text) as { title: string };
        const item = {
          ...sent,
          id: items.length + 1,
          title: mode === 'idless' ? sent.title : sent.title.replace('·', '-'),
        };
        items.push(item);
        if (mode === 'idless') response.writeHead(202).end();
        else
          response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: item }));
        return;
      }
      const one = /^\/api\/p\/suites\/(\d+)$/.exec(request.url ?? '');
      if (request.method === 'GET' && (one || request.url === '/api/p/suites')) {
        const body = one ? { data: items.find((item) => String(item.id) === one[1]) } : { data: items };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        return;
      }
      response.writeHead(404).end();
    });
  });
}

function har(origin: string): string {
  const entry = (method: string, status: number, requestBody: string | undefined, responseBody: string) => ({
    startedDateTime: '2026-11-29T20:10:42.268Z',
    time: 1,
    request: {
      method,
      url: `${origin}/api/p/suites`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      queryString: [],
      headersSize: -1,
      bodySize: -1,
      ...(requestBody ? { postData: { mimeType: 'application/json', text: requestBody } } : {}),
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: { size: responseBody.length, mimeType: 'application/json', text: responseBody },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
  });
  const path = join(tempDir(), 'p.har');
  writeFileSync(
    path,
    JSON.stringify({
      log: {
        version: '1.2',
        creator: { name: 'test', version: '1' },
        entries: [
          entry('GET', 200, undefined, '{"data":[]}'),
          entry('POST', 201, '{"title":"Checkout","description":""}', '{"data":{"id":7,"title":"Checkout"}}'),
        ],
      },
    }),
  );
  return path;
}

/** The app listening on 127.0.0.1 for the describe block it is called in. */
function served(mode: 'idless' | 'normalizing'): { origin: string } {
  const app = suitesApp(mode);
  const at = { origin: '' };
  beforeAll(async () => {
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    at.origin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => app.close(() => resolve())));
  return at;
}

describe('a create accepted with no id in its answer (202, an empty body)', () => {
  const at = served('idless');

  it('is found again by its marker in a read of the collection, each create its own item, and verified', async () => {
    const cwd = tempDir();
    const run = await runTally(
      ['fish', '3 suites', '--captures', har(at.origin), '--scope', '/api/p', '--json'],
      { cwd },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; verified: { target: string; via: string }[] };
    expect(result.status).toBe('success');
    expect(result.verified.map((item) => item.target).sort()).toEqual(['1', '2', '3']);
    // The answer came (202); it named no id. Not "response lost", which would send a user looking
    // for a network fault.
    for (const item of result.verified)
      expect(item.via).toBe(
        'POST /api/p/suites → 202 (no id in the response), found by GET /api/p/suites → 200',
      );
    const verify = await runTally(['verify', (JSON.parse(run.stdout) as { runId: string }).runId], { cwd });
    expect(verify.code, verify.stdout).toBe(0);
  });
});

describe('an app that stores the title it was sent in its own spelling', () => {
  const at = served('normalizing');

  it('has still made what was asked: success, each item claimed with the title the app answered', async () => {
    const cwd = tempDir();
    const run = await runTally(
      ['fish', '2 suites', '--captures', har(at.origin), '--scope', '/api/p', '--json'],
      { cwd },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      status: string;
      verified: { title: string }[];
      dropped: unknown[];
    };
    expect(result.status).toBe('success');
    expect(result.dropped).toEqual([]);
    for (const item of result.verified) expect(item.title).toMatch(/^Suite \d - [0-9a-f]{6}$/);
  });
});
