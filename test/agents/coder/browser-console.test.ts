import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailOpen } from '../../../src/core/fail-open.js';
import { invokeTool } from '../../../src/core/invoke-tool.js';
import { browserConsoleTool } from '../../../src/packs/browser/browser-console-tool.js';
import { checkLoopbackUrl } from '../../../src/packs/browser/check-loopback-url.js';
import { tempLedger } from '../../helpers.js';

const CHROMIUM = process.env.TALLY_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);

describe('checkLoopbackUrl: the URL as the parser reads it, loopback only', () => {
  it.each([
    'http://127.0.0.1:5173/',
    'http://127.1/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://127.255.0.9/x',
    'http://localhost:3000/',
    'http://LOCALHOST/',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]/',
    'https://127.0.0.1/',
  ])('opens %s', (url) => {
    expect(checkLoopbackUrl(url).ok).toBe(true);
  });

  it.each([
    ['http://localhost.evil.com/', 'URL_NOT_LOOPBACK'],
    ['http://127.0.0.1.nip.io/', 'URL_NOT_LOOPBACK'],
    ['http://example.com/', 'URL_NOT_LOOPBACK'],
    ['http://10.0.0.1/', 'URL_NOT_LOOPBACK'],
    ['http://0/', 'URL_NOT_LOOPBACK'],
    ['http://[::]/', 'URL_NOT_LOOPBACK'],
    ['http://[::ffff:10.0.0.1]/', 'URL_NOT_LOOPBACK'],
    ['http://app.localhost/', 'URL_NOT_LOOPBACK'],
    ['http://evil@127.0.0.1/', 'URL_CREDENTIALS_REFUSED'],
    ['http://127.0.0.1:80@evil.com/', 'URL_CREDENTIALS_REFUSED'],
    ['file:///etc/passwd', 'URL_SCHEME_REFUSED'],
    ['javascript:alert(1)', 'URL_SCHEME_REFUSED'],
    ['ftp://127.0.0.1/', 'URL_SCHEME_REFUSED'],
    ['127.0.0.1:5173', 'URL_INVALID'],
    ['/index.html', 'URL_INVALID'],
  ])('refuses %s with %s and a reason naming the fix', (url, code) => {
    const verdict = checkLoopbackUrl(url);
    expect(verdict).toMatchObject({ ok: false, code });
    if (!verdict.ok) expect(verdict.reason).toMatch(/\.$/);
  });
});

const PAGES: Record<string, { status?: number; type?: string; body: string }> = {
  '/clean': { body: '<!doctype html><title>Clean</title><h1>ok</h1><script src="/app.js"></script>' },
  '/app.js': { type: 'text/javascript', body: 'document.title = "Clean";' },
  '/console': { body: '<!doctype html><title>C</title><script>console.error("broken widget")</script>' },
  '/throws': { body: '<!doctype html><title>T</title><script>null.boom()</script>' },
  '/missing-image': { body: '<!doctype html><title>M</title><img src="/nope.png">' },
  '/external': { body: '<!doctype html><title>E</title><img src="http://example.com/x.png">' },
  '/socket': {
    body: '<!doctype html><title>W</title><script>const s = new WebSocket("ws://example.com/live"); s.onerror = () => console.log("socket refused");</script>',
  },
  '/gone': { status: 404, body: 'not here' },
};

describe.skipIf(!hasChromium)(`browser_console in real Chromium (${CHROMIUM})`, () => {
  let server: Server;
  let base: string;
  const tool = browserConsoleTool({ timeoutMs: 10_000, settleMs: 100 });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      if (path === '/redirect-in') {
        response.writeHead(302, { location: '/clean' }).end();
        return;
      }
      if (path === '/redirect-out') {
        response.writeHead(302, { location: 'http://example.com/' }).end();
        return;
      }
      const page = PAGES[path];
      response
        .writeHead(page?.status ?? (page ? 200 : 404), { 'content-type': page?.type ?? 'text/html' })
        .end(page?.body ?? 'missing');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const open = async (path: string) => {
    const outcome = await tool.execute(
      { url: `${base}${path}` },
      { runId: 'test', failOpen: () => undefined },
    );
    return outcome;
  };

  it('reports a clean page as clean, with its status and evidence', async () => {
    const { result, evidence } = await open('/clean');
    expect(result).toMatchObject({ ok: true, clean: true, httpStatus: 200, title: 'Clean', loaded: true });
    expect(result.consoleErrors).toEqual([]);
    expect(result.pageErrors).toEqual([]);
    expect(result.failedRequests).toEqual([]);
    expect(evidence?.via).toMatch(
      /^chromium GET http:\/\/127\.0\.0\.1:\d+\/clean → HTTP 200, 0 console error/,
    );
  });

  it('reports a console error with its location', async () => {
    const { result } = await open('/console');
    expect(result.clean).toBe(false);
    expect(result.consoleErrors).toEqual([
      expect.objectContaining({ text: 'broken widget', location: expect.stringContaining('/console:1') }),
    ]);
  });

  it('reports an uncaught exception', async () => {
    const { result } = await open('/throws');
    expect(result.pageErrors).toEqual([{ message: expect.stringMatching(/Cannot read properties of null/) }]);
  });

  it('reports a 404 subresource as a failed request', async () => {
    const { result } = await open('/missing-image');
    expect(result.httpStatus).toBe(200);
    expect(result.failedRequests).toEqual([
      expect.objectContaining({ url: `${base}/nope.png`, status: 404, resourceType: 'image' }),
    ]);
  });

  it('reports the document status of a missing page without failing the call', async () => {
    const { result } = await open('/gone');
    expect(result).toMatchObject({ ok: true, clean: false, httpStatus: 404 });
  });

  it('blocks a subresource on another host before it leaves the machine', async () => {
    const { result } = await open('/external');
    expect(result.blockedRequests).toEqual([{ url: 'http://example.com/x.png', why: 'URL_NOT_LOOPBACK' }]);
    expect(result.failedRequests).toEqual([]);
  });

  it('blocks a WebSocket to another host before it leaves the machine (issue 19, item 7)', async () => {
    const { result } = await open('/socket');
    expect(result.blockedRequests).toEqual([{ url: 'ws://example.com/live', why: 'URL_NOT_LOOPBACK' }]);
  });

  it('does not follow a redirect to a host that is not loopback', async () => {
    const { result } = await open('/redirect-out');
    expect(result.blockedRequests).toEqual([{ url: 'http://example.com/', why: 'URL_NOT_LOOPBACK' }]);
    expect(result.finalUrl).not.toContain('example.com');
    expect(result.clean).toBe(false);
  });

  it('reports a preview server that is not running', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { result } = await tool.execute(
      { url: `http://127.0.0.1:${port}/` },
      { runId: 'test', failOpen: () => undefined },
    );
    expect(result).toMatchObject({ ok: true, clean: false, loaded: false });
    expect(result.httpStatus).toBeUndefined();
    expect(result.failedRequests[0]).toMatchObject({ resourceType: 'document', failure: expect.any(String) });
  });

  it('follows a redirect that stays on loopback', async () => {
    const { result } = await open('/redirect-in');
    expect(result).toMatchObject({ clean: true, httpStatus: 200, finalUrl: `${base}/clean` });
  });

  it('through invokeTool: a refused URL is a rejected call with its code; a page is an ok read', async () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'test', task: 'browse' });
    const failOpen: FailOpen = () => undefined;
    const refused = await invokeTool(tool, { url: 'http://localhost.evil.com/' }, { recorder, failOpen });
    const page = await invokeTool(tool, { url: `${base}/clean` }, { recorder, failOpen });
    expect(refused).toMatchObject({ outcome: 'rejected', error: { code: 'URL_NOT_LOOPBACK' } });
    expect(page).toMatchObject({ outcome: 'ok' });
    expect(tool.annotations.readOnly).toBe(true);
  });
});

describe('browser_console without Chromium', () => {
  it('is a clear tool error and a browser-unavailable fail-open', async () => {
    const failOpens: string[] = [];
    const tool = browserConsoleTool({ chromiumPath: '/nonexistent/chromium' });
    await expect(
      tool.execute(
        { url: 'http://127.0.0.1:9/' },
        { runId: 'test', failOpen: (component, why) => failOpens.push(`${component}:${why}`) },
      ),
    ).rejects.toMatchObject({
      code: 'BROWSER_UNAVAILABLE',
      message: expect.stringContaining(
        'no Chromium at /nonexistent/chromium (apt-get install chromium, or set TALLY_CHROMIUM',
      ),
    });
    expect(failOpens).toEqual(['browser_console:browser-unavailable']);
  });

  it('refuses a non-loopback URL before looking for a browser', async () => {
    const tool = browserConsoleTool({ chromiumPath: '/nonexistent/chromium' });
    await expect(
      tool.execute({ url: 'http://example.com/' }, { runId: 'test', failOpen: () => undefined }),
    ).rejects.toMatchObject({ code: 'URL_NOT_LOOPBACK' });
  });
});
