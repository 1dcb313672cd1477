// A real third-party REST target for end-to-end tests: json-server 0.17.4 (its collections
// each number ids from 1, so `post 1` and `comment 1` coexist), and a HAR recorded of it in
// real Chromium. Everything listens on and talks to 127.0.0.1 only.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { QUIET_CHROMIUM_FLAGS } from '../../src/packs/browser/chromium-settings.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const JSON_SERVER_BIN = join(ROOT, 'node_modules', '.bin', 'json-server');
export const CHROMIUM_PATH = process.env.TALLY_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);

const HOST = '127.0.0.1';
const LAUNCH_ARGS = QUIET_CHROMIUM_FLAGS;

/** A port that was free a moment ago: listen on 0, read the port, close. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

export interface JsonServer {
  url: string;
  port: number;
  /** The db.json json-server reads and writes back. */
  dbPath: string;
  /** What json-server printed so far (its request log), for failure messages. */
  log(): string;
  /** The database as json-server last wrote it. */
  db(): Record<string, unknown[]>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const done = await Promise.race([exited(child).then(() => true), sleep(5_000).then(() => false)]);
  if (!done) {
    child.kill('SIGKILL');
    await exited(child);
  }
}

async function launchOnce(port: number, dbPath: string, timeoutMs: number) {
  // The bin file itself, run by this Node (no npx, no PATH lookup for `node`).
  const child = spawn(process.execPath, [JSON_SERVER_BIN, dbPath, '--host', HOST, '--port', String(port)], {
    cwd: join(dbPath, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
    // NODE_ENV=test (set by vitest) would silence json-server's request log.
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', NODE_ENV: '' },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      return { child, url, output: () => output, up: false };
    try {
      const response = await fetch(`${url}/db`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) {
        await response.arrayBuffer();
        return { child, url, output: () => output, up: true };
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stop(child);
  return { child, url, output: () => output, up: false };
}

/**
 * Starts json-server on 127.0.0.1 and a free port, over a db.json copied into a fresh temp
 * directory (json-server writes back to it), and waits until it answers HTTP.
 */
export async function startJsonServer(
  db: Record<string, unknown[]> = { posts: [], comments: [] },
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<JsonServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-json-server-'));
  const dbPath = join(dir, 'db.json');
  writeFileSync(dbPath, `${JSON.stringify(db, null, 2)}\n`);
  let lastOutput = '';
  // A freed port can be taken again before json-server binds it: try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const started = await launchOnce(port, dbPath, timeoutMs);
    if (!started.up) {
      lastOutput = started.output();
      continue;
    }
    const { child, url } = started;
    return {
      url,
      port,
      dbPath,
      log: started.output,
      db: () => JSON.parse(readFileSync(dbPath, 'utf8')),
      close: async () => {
        await stop(child);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`json-server did not start on ${HOST}:\n${lastOutput}`);
}

/** What the page itself saw while recording, straight from its fetch() calls. */
export interface RecordedSession {
  post: { status: number; location: string | null; body: Record<string, unknown> };
  comment: { status: number; location: string | null; body: Record<string, unknown> };
  list: { status: number; body: unknown };
  /** Requests the browser tried to send anywhere but the server: aborted, never sent. */
  blocked: string[];
  entries: number;
}

/**
 * Records a HAR in real Chromium: open json-server's home page, then, from the page,
 * POST /posts, POST /comments with the new post's id as `postId`, and GET /posts. Any
 * request to another origin (the home page links a CDN stylesheet) is aborted.
 */
export async function recordJsonServerHar(server: JsonServer, harPath: string): Promise<RecordedSession> {
  const origin = new URL(server.url).origin;
  const blocked: string[] = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
  try {
    const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      blocked.push(url);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    await page.waitForSelector('#resources a[href="posts"]'); // the home page's own GET /db
    // No named functions inside: tsx's keepNames would inject a `__name` helper the page lacks.
    const seen = await page.evaluate(async () => {
      const created = [];
      let postId: unknown;
      for (const [path, body] of [
        ['/posts', { title: 'First post', author: 'me' }],
        ['/comments', { body: 'Nice' }],
      ] as const) {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(path === '/comments' ? { ...body, postId } : body),
        });
        const json = (await response.json()) as Record<string, unknown>;
        postId ??= json.id;
        created.push({ status: response.status, location: response.headers.get('location'), body: json });
      }
      const listed = await fetch('/posts');
      const [post, comment] = created;
      return { post, comment, list: { status: listed.status, body: (await listed.json()) as unknown } };
    });
    await context.close(); // the HAR is written here
    const har = JSON.parse(readFileSync(harPath, 'utf8')) as { log: { entries: unknown[] } };
    return {
      ...(seen as Omit<RecordedSession, 'blocked' | 'entries'>),
      blocked,
      entries: har.log.entries.length,
    };
  } finally {
    await browser.close();
  }
}
