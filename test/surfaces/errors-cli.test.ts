import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoApp, startDemoApp } from '../../src/demo-app/server.js';
import { runTally, type TallyRun, tempDir } from '../helpers.js';

const HAR = join(import.meta.dirname, '..', '..', 'demo', 'captures', 'demo-app.har');
const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

/** A port nothing listens on: bound, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface JsonError {
  error: { code: string; message: string; details: Record<string, unknown> };
}

/** Runs the same failing command as text and as --json, and checks both forms. */
async function expectFriendly(
  args: string[],
  expected: { exit: number; code: string; hint: RegExp },
): Promise<{ text: TallyRun; json: JsonError }> {
  const cwd = tempDir();
  const text = await runTally(args, { cwd });
  expect(text.code, text.stderr).toBe(expected.exit);
  expect(text.stderr).not.toMatch(STACK_LINE);
  expect(text.stderr).not.toContain('unexpected error');
  expect(text.stderr).toMatch(expected.hint);

  const asJson = await runTally([...args, '--json'], { cwd });
  expect(asJson.code, asJson.stderr).toBe(expected.exit);
  expect(asJson.stderr).not.toMatch(STACK_LINE);
  const json = JSON.parse(asJson.stdout) as JsonError;
  expect(json.error.code).toBe(expected.code);
  expect(json.error.message).toMatch(expected.hint);
  expect(typeof json.error.details).toBe('object');
  return { text, json };
}

const fish = (baseUrl: string) => [
  'fish',
  '2 suites with 3 tests each',
  '--captures',
  HAR,
  '--base-url',
  baseUrl,
  '--scope',
  '/projects/alpha-shop',
  '--login',
  'demo',
];

describe('foreseeable failures: no stack trace, what failed and where, what to do, JSON under --json', () => {
  let app: DemoApp;
  let busy: Server;
  let busyPort: number;

  beforeAll(async () => {
    app = await startDemoApp({ port: 0 });
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => busy.close(resolve));
  });

  it('a base URL where nothing listens (connection refused) names the URL; exit 3', async () => {
    const port = await freePort();
    const { json } = await expectFriendly(fish(`http://127.0.0.1:${port}`), {
      exit: 3,
      code: 'LOGIN_UNREACHABLE',
      hint: /Cannot reach http:\/\/127\.0\.0\.1:\d+ .*ECONNREFUSED.*Check --base-url/,
    });
    expect(json.error.details.url).toBe(`http://127.0.0.1:${port}/login`);
  });

  it('a host name that does not resolve (DNS) names the host; exit 3', async () => {
    await expectFriendly(fish('http://tally-no-such-host.invalid'), {
      exit: 3,
      code: 'LOGIN_UNREACHABLE',
      hint: /tally-no-such-host\.invalid.*(ENOTFOUND|EAI_AGAIN).*Check --base-url/,
    });
  }, 30_000);

  it('https:// against a plain-HTTP server (TLS) names the TLS failure; exit 3', async () => {
    await expectFriendly(fish(app.url.replace('http://', 'https://')), {
      exit: 3,
      code: 'LOGIN_UNREACHABLE',
      hint: /Cannot reach https:\/\/127\.0\.0\.1:\d+ .*(SSL|TLS|EPROTO).*Check --base-url/,
    });
  });

  it('a base URL that is not a URL, or not http(s), is a usage error before anything runs; exit 2', async () => {
    await expectFriendly(fish('not-a-url'), {
      exit: 2,
      code: 'USAGE',
      hint: /--base-url.*'not-a-url' is invalid.*--base-url http:\/\/127\.0\.0\.1:4000/,
    });
    await expectFriendly(fish('ftp://example.test/'), {
      exit: 2,
      code: 'USAGE',
      hint: /Only http:\/\/ and https:\/\/ are supported, not ftp:/,
    });
  });

  it('a port in use names the port and says to pick another (demo-app and mcp --transport http); exit 3', async () => {
    // `demo-app` has no --json: its text form is checked; the JSON form is checked through mcp.
    const demo = await runTally(['demo-app', '--port', String(busyPort)]);
    expect(demo.code).toBe(3);
    expect(demo.stderr).not.toMatch(STACK_LINE);
    expect(demo.stderr).toContain(`Port ${busyPort} on 127.0.0.1 is already in use. Pass another --port`);

    const root = tempDir();
    const mcp = await runTally(['mcp', '--root', root, '--transport', 'http', '--port', String(busyPort)]);
    expect(mcp.code).toBe(3);
    expect(mcp.stderr).not.toMatch(STACK_LINE);
    expect(mcp.stderr).toContain(`Port ${busyPort} on 127.0.0.1 is already in use`);
  });

  it('mcp --packs http without --captures names --captures, never --spec (which mcp does not take); exit 2', async () => {
    const run = await runTally(['mcp', '--root', tempDir(), '--packs', 'http']);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stderr).toContain('The http pack needs to know the API: pass --captures');
    expect(run.stderr).not.toMatch(/pass[^.]*--spec/);
  });

  it('a bad number (demo-app --port abc, mcp --port 70000, runs --limit abc) is a usage error; exit 2', async () => {
    for (const args of [
      ['demo-app', '--port', 'abc'],
      ['mcp', '--root', '.', '--transport', 'http', '--port', '70000'],
    ]) {
      const run = await runTally(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).not.toMatch(STACK_LINE);
      expect(run.stderr).toContain('A port is a whole number from 0 to 65535');
    }
    await expectFriendly(['runs', '--limit', 'abc'], {
      exit: 2,
      code: 'USAGE',
      hint: /--limit.*'abc' is invalid.*whole number of at least 1/,
    });
  });

  it('an unknown command under --json is JSON too, and a missing run keeps its own code', async () => {
    await expectFriendly(['frobnicate'], { exit: 2, code: 'USAGE', hint: /unknown command 'frobnicate'/ });
    await expectFriendly(['runs', 'show', 'run_missing'], {
      exit: 2,
      code: 'RUN_NOT_FOUND',
      hint: /No run "run_missing".*tally runs/,
    });
  });

  it('a missing model for the coder is JSON under --json (exit 2)', async () => {
    const root = tempDir();
    await expectFriendly(['code', '--root', root, 'add a file'], {
      exit: 2,
      code: 'MODEL_NOT_CONFIGURED',
      hint: /Pass --model provider:model/,
    });
  });

  it('--debug (or TALLY_DEBUG=1) shows the stack trace as well as the message', async () => {
    const debug = await runTally(['--debug', 'demo-app', '--port', String(busyPort)]);
    expect(debug.code).toBe(3);
    expect(debug.stderr).toMatch(STACK_LINE);
    expect(debug.stderr).toContain('already in use');
    const viaEnv = await runTally(['demo-app', '--port', String(busyPort)], { env: { TALLY_DEBUG: '1' } });
    expect(viaEnv.stderr).toMatch(STACK_LINE);
  });
});
