import { existsSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { PARSE_FRAME_JS } from '../../src/surfaces/web/chat-page.js';
import { type ChatServer, sseFrame, startChatServer } from '../../src/surfaces/web/start-chat-server.js';
import { callTool, say, scriptedModel } from '../../src/testing/scripted-model.js';
import { sampleProject } from '../agents/coder/coder-fixtures.js';
import { tempDir, tempLedger } from '../helpers.js';

const CHROMIUM = process.env.TALLY_CHROMIUM ?? '/usr/bin/chromium';
const RESULTS = join(import.meta.dirname, '..', '..', 'test-results');

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function chatServer() {
  const root = sampleProject();
  const model = scriptedModel([
    callTool('fs_write', { path: '/elsewhere/c.ts', content: 'x' }, 'Writing src/c.ts.'),
    callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
    say('I created src/c.ts.'),
  ]);
  server = await startChatServer({ root, ledger: tempLedger(), turn: { model, browser: false } });
  return { root, model, server };
}

describe('the chat server: loopback only, this page only', () => {
  it('refuses a foreign Host (DNS rebinding), a foreign Origin, and a POST without the page token', async () => {
    const { server } = await chatServer();
    const port = server.port;
    // fetch may not set Host; a raw request can, as a rebinding page's browser would send it.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        path: '/',
        headers: { host: `evil.example:${port}` },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.end();
    });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body)).toMatchObject({ code: 'HOST_REFUSED' });
    const foreign = await fetch(`${server.url}api/turn`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{"message":"hi"}',
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: 'ORIGIN_REFUSED' });
    const tokenless = await fetch(`${server.url}api/turn`, {
      method: 'POST',
      headers: { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' },
      body: '{"message":"hi"}',
    });
    expect(tokenless.status).toBe(403);
    expect(await tokenless.json()).toMatchObject({ code: 'TOKEN_REFUSED' });
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });
});

describe('SSE frames survive U+2028/U+2029 (issue 19, item 8)', () => {
  const parseFrame = new Function(`${PARSE_FRAME_JS}; return parseFrame;`)() as (
    block: string,
  ) => { name: string; data: unknown } | undefined;
  /** The page's reader before the fix: a regex whose `.` and `$` stop at U+2028. */
  const regexReader = (block: string) => {
    const data = /^data: (.*)$/m.exec(block)?.[1];
    return data === undefined ? undefined : JSON.parse(data);
  };

  it('a frame holding them is one line of escaped JSON that both the page reader and a regex reader parse', () => {
    const data = { text: 'a\u2028b\u2029c', path: 'src/x\u2028.ts' };
    const frame = sseFrame('text', data);
    expect(frame).not.toMatch(/[\u2028\u2029]/);
    expect(frame).toContain('\\u2028');
    const block = frame.slice(0, frame.indexOf('\n\n'));
    expect(parseFrame(block)).toEqual({ name: 'text', data });
    expect(regexReader(block)).toEqual(data);
    // The page's reader is line-safe on its own too: a raw U+2028 inside the JSON still parses.
    expect(parseFrame(`event: text\ndata: ${JSON.stringify(data)}`)).toEqual({ name: 'text', data });
    expect(parseFrame('event: text\ndata: {broken')).toBeUndefined();
  });

  it('a turn whose reply and file name hold them streams every event to the end, the flags included', async () => {
    const root = sampleProject();
    const model = scriptedModel([
      callTool('fs_write', { path: 'src/odd\u2029name.ts', content: 'export const a = 1;\n' }),
      say('Line one\u2028line two. I deleted src/a.ts.'),
    ]);
    server = await startChatServer({ root, ledger: tempLedger(), turn: { model, browser: false } });
    const page = await (await fetch(server.url)).text();
    const token = /name="tally-token" content="([^"]+)"/.exec(page)?.[1] as string;
    const response = await fetch(`${server.url}api/turn`, {
      method: 'POST',
      headers: {
        origin: `http://127.0.0.1:${server.port}`,
        'content-type': 'application/json',
        'x-tally-token': token,
      },
      body: JSON.stringify({ message: 'write a file' }),
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).not.toMatch(/[\u2028\u2029]/);
    const blocks = body.split('\n\n').filter(Boolean);
    const frames = blocks.map((block) => parseFrame(block));
    expect(frames.every(Boolean)).toBe(true);
    for (const block of blocks) expect(() => regexReader(block)).not.toThrow();
    const names = frames.map((frame) => frame?.name);
    expect(names).toContain('text');
    expect(names.at(-1)).toBe('turn-end');
    const text = frames.find((frame) => frame?.name === 'text')?.data as { text: string };
    expect(text.text).toContain('\u2028');
    const end = frames.at(-1)?.data as { result: { flags: unknown[] } };
    expect(end.result.flags.length).toBeGreaterThan(0);
  });
});

/** One turn through the server's HTTP API, as the page sends it; its SSE frames parsed. */
async function postTurn(chat: ChatServer, message: string) {
  const page = await (await fetch(chat.url)).text();
  const token = /name="tally-token" content="([^"]+)"/.exec(page)?.[1] as string;
  const response = await fetch(`${chat.url}api/turn`, {
    method: 'POST',
    headers: {
      origin: `http://127.0.0.1:${chat.port}`,
      'content-type': 'application/json',
      'x-tally-token': token,
    },
    body: JSON.stringify({ message }),
  });
  const parse = new Function(`${PARSE_FRAME_JS}; return parseFrame;`)() as (
    block: string,
  ) => { name: string; data: Record<string, unknown> } | undefined;
  const frames = (await response.text())
    .split('\n\n')
    .filter(Boolean)
    .map((block) => parse(block));
  return frames.filter((frame) => frame !== undefined);
}

describe('the page shows only what the ledger holds', () => {
  it('a turn whose run the ledger did not take ends in LEDGER_BUSY, never in a changes report', async () => {
    const root = sampleProject();
    const real = tempLedger();
    // The store stays locked past the busy limit: commit() answers false (see requireRecorded).
    const ledger = new Proxy(real, {
      get: (target, property) =>
        property === 'commit' ? async () => false : Reflect.get(target, property, target),
    });
    const model = scriptedModel([
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      say('I created src/c.ts.'),
    ]);
    server = await startChatServer({ root, ledger, turn: { model, browser: false } });
    const frames = await postTurn(server, 'add src/c.ts');
    const names = frames.map((frame) => frame.name);
    expect(names).not.toContain('turn-end');
    const runId = frames.find((frame) => frame.name === 'run-start')?.data.runId as string;
    expect(frames.at(-1)).toMatchObject({ name: 'error', data: { code: 'LEDGER_BUSY' } });
    expect(String(frames.at(-1)?.data.message)).toContain(`run ${runId} is incomplete`);
    expect(String(frames.at(-1)?.data.message)).toContain('send the message again');
  });

  it('a partial turn carries its status line (what was asked and not done) with its changes report', async () => {
    const root = sampleProject();
    const model = scriptedModel([
      callTool('fs_write', { path: 'src/x.ts', content: 'export const x = 1;\n' }),
      say('Done.'),
    ]);
    server = await startChatServer({ root, ledger: tempLedger(), turn: { model, browser: false } });
    const frames = await postTurn(server, 'create src/x.ts and src/y.ts');
    const end = frames.at(-1);
    expect(end?.name).toBe('turn-end');
    expect(end?.data.result).toMatchObject({ status: 'partial' });
    expect(end?.data.statusLine).toMatch(/^Status: partial — .*src\/y\.ts/);
  });
});

/** A model that answers nothing until its call is aborted (a long turn, stopped). */
const hangingModel = (): LanguageModelV3 => {
  const wait = (options: { abortSignal?: AbortSignal }) =>
    new Promise<never>((_, reject) =>
      options.abortSignal?.addEventListener('abort', () =>
        reject(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' })),
      ),
    );
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'hanging',
    supportedUrls: {},
    doGenerate: wait,
    doStream: wait,
  };
};

describe('the server under a stop and a vanished client', () => {
  it('close() during a turn ends its run `aborted` in the ledger before it returns (Ctrl-C, then the ledger closes)', async () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = Ledger.open(path);
    const chat = await startChatServer({
      root: sampleProject(),
      ledger,
      turn: { model: hangingModel(), browser: false },
    });
    const sent = postTurn(chat, 'create src/x.ts').catch(() => []);
    await vi.waitFor(async () => expect((await ledger.listRuns()).length).toBe(1), { timeout: 10_000 });
    await chat.close();
    // What `tally code --ui` does next: usingLedger closes the ledger.
    await ledger.close();
    await sent;
    const reread = Ledger.open(path, { readonly: true });
    const [run] = await reread.listRuns();
    expect(run).toMatchObject({ endingReason: 'aborted' });
    expect(reread.getRun(run?.id as string).entries.filter((entry) => entry.kind === 'end')).toHaveLength(1);
    reread.close();
  });

  it('a client that goes away mid-upload does not take the server down; the next turn runs', async () => {
    // Before the fix the body read's rejection went unhandled: `tally code --ui` exited 1 (vitest
    // reports it as an unhandled rejection and fails the run).
    const model = scriptedModel([say('Hello.')]);
    server = await startChatServer({
      root: sampleProject(),
      ledger: tempLedger(),
      turn: { model, browser: false },
    });
    const page = await (await fetch(server.url)).text();
    const token = /name="tally-token" content="([^"]+)"/.exec(page)?.[1] as string;
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/turn HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: http://127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nX-Tally-Token: ${token}\r\nContent-Length: 1000\r\n\r\n{"message":"hi`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const frames = await postTurn(server, 'hello');
    expect(frames.at(-1)?.name).toBe('turn-end');
  });
});

describe.skipIf(!existsSync(CHROMIUM))(`the chat page in real Chromium (${CHROMIUM})`, () => {
  it('streams the reply and the tool calls, shows the refusal and the changes report; screenshot', async () => {
    const { chromium } = await import('playwright-core');
    const { root, model } = await chatServer();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(server?.url ?? '');
      await page.fill('#message', 'add src/c.ts exporting c = 3');
      await page.click('#send');
      await page.waitForSelector('table.changes tr[data-path="src/c.ts"]', { timeout: 15_000 });

      expect(await page.locator('.user').textContent()).toBe('add src/c.ts exporting c = 3');
      const calls = page.locator('.tool-call');
      expect(await calls.count()).toBe(2);
      expect(await calls.nth(0).getAttribute('class')).toContain('refused');
      expect(await calls.nth(0).textContent()).toContain('PATH_OUTSIDE_PROJECT');
      expect(await calls.nth(1).textContent()).toMatch(
        /fs_write src\/c\.ts → ok.*via fs_write src\/c\.ts sha256=/,
      );
      expect(await page.locator('.assistant').allTextContents()).toEqual([
        'Writing src/c.ts.',
        'I created src/c.ts.',
      ]);
      expect(await page.locator('table.changes tr[data-path="src/c.ts"]').textContent()).toMatch(
        /src\/c\.tscreated20[0-9a-f]{12}/,
      );
      expect(await page.locator('#chat-id').textContent()).toMatch(/^chat chat_/);
      expect(existsSync(join(root, 'src', 'c.ts'))).toBe(true);
      expect(pageErrors).toEqual([]);
      model.assertComplete();

      const shot = join(RESULTS, 'web-chat.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(5_000);
    } finally {
      await browser.close();
    }
  });
  it('shows a partial turn as partial: the status line with what was asked and not done', async () => {
    const { chromium } = await import('playwright-core');
    const model = scriptedModel([
      callTool('fs_write', { path: 'src/x.ts', content: 'export const x = 1;\n' }),
      say('Done. All tests pass.'),
    ]);
    server = await startChatServer({
      root: sampleProject(),
      ledger: tempLedger(),
      turn: { model, browser: false },
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.fill('#message', 'create src/x.ts and src/y.ts');
      await page.click('#send');
      await page.waitForSelector('.meta', { timeout: 15_000 });
      expect(await page.locator('.status').textContent()).toMatch(/^Status: partial — .*src\/y\.ts/);
      expect(await page.locator('.meta').textContent()).toContain(' · partial · ');
      // Flags read as the terminal prints them: one sentence each.
      expect(await page.locator('.flag:not(.status)').allTextContents()).toEqual([
        `FLAGGED: the reply says "All tests pass."; the ledger shows: this turn ran no test, build or lint: the Coder's tools only read and write files.`,
      ]);
    } finally {
      await browser.close();
    }
  });
});
