import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';

// The real clients users run, pinned in package.json: the MCP Inspector's CLI (2.12) and the
// official SDK client scripted as a client that advertises roots. `tally mcp` runs as the
// built CLI (`npm run build`), as a user starts it.
const repo = join(import.meta.dirname, '..', '..', '..');
const bin = join(repo, 'bin', 'tally.js');
const inspectorBin = join(repo, 'node_modules', '.bin', 'mcp-inspector');
const recorded = JSON.parse(
  readFileSync(join(repo, 'test', 'fixtures', 'mcp', 'inspector-2.12-http-roots.json'), 'utf8'),
) as { initialize: { params: { capabilities: Record<string, unknown> } } };

const children: ChildProcess[] = [];
afterEach(() => {
  while (children.length > 0) children.pop()?.kill('SIGKILL');
});

/** A project `<tmp>/packages/x` with a.txt and sub/b.txt, so a parent and a child root both exist. */
function monorepo() {
  const top = tempDir();
  const root = join(top, 'packages', 'x');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'a.txt'), 'top file\n');
  writeFileSync(join(root, 'sub', 'b.txt'), 'sub file\n');
  return { top, root, home: tempDir('tally-home-') };
}

function cleanEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    TALLY_LEDGER: '',
    // The Inspector keeps its catalog (~/.mcp-inspector) under this temp HOME, secrets in memory.
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    ...extra,
  };
}

interface HttpTally {
  url: string;
  child: ChildProcess;
  stderr: () => string;
}

/** `tally mcp --transport http` as a real process; resolves once it prints its URL. */
function startHttpTally(root: string, home: string, env: Record<string, string> = {}): Promise<HttpTally> {
  const child = spawn(process.execPath, [bin, 'mcp', '--transport', 'http', '--root', root], {
    env: cleanEnv(home, env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /on (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve({ url, child, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`tally mcp exited (${code}) before listening: ${stderr}`)));
  });
}

interface InspectorRun {
  code: number;
  result: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text: string }[] };
  stderr: string;
  ms: number;
}

function inspector(args: string[], home: string): Promise<InspectorRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      inspectorBin,
      ['--cli', ...args, '--format', 'json'],
      { cwd: home, env: cleanEnv(home), timeout: 50_000 },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((candidate) => candidate.startsWith('{"result"'));
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          result: line ? (JSON.parse(line) as { result: InspectorRun['result'] }).result : {},
          stderr,
          ms: performance.now() - started,
        });
      },
    );
  });
}

const readA = ['--method', 'tools/call', '--tool-name', 'fs_read', '--tool-arg', 'path=a.txt'];

/** The Inspector's own config file: one server entry with the roots it advertises. */
function inspectorConfig(home: string, server: Record<string, unknown>, roots: string[]): string {
  const path = join(home, 'inspector-config.json');
  const entry = { ...server, roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: root })) };
  writeFileSync(path, JSON.stringify({ mcpServers: { tally: entry } }));
  return path;
}

type RootsCase = 'equal' | 'parent' | 'child';
const rootsFor = (kind: RootsCase, project: ReturnType<typeof monorepo>) =>
  ({ equal: [project.root], parent: [project.top], child: [join(project.root, 'sub')] })[kind];

function expectReadA(run: InspectorRun, kind: 'empty' | RootsCase, root: string) {
  if (kind !== 'child') {
    expect(run.result.structuredContent, run.stderr).toMatchObject({ ok: true, content: 'top file' });
    return;
  }
  // A child root narrows to it: a.txt is refused, and the message names what is allowed
  // instead of suggesting the refused path back.
  const text = run.result.content?.[0]?.text ?? '';
  expect(run.result.isError).toBe(true);
  expect(text).toContain('(outside-client-roots)');
  expect(text).toContain(`limit this session to ${join(root, 'sub')}`);
  expect(text).not.toContain('Did you mean');
}

describe('the MCP Inspector CLI 2.12 against `tally mcp`', () => {
  it('the recorded initialize advertises roots even by default (what made every HTTP call hang)', () => {
    expect(recorded.initialize.params.capabilities).toMatchObject({ roots: { listChanged: true } });
  });

  it('over stdio, with its default settings (an empty roots list), reads a file in --root', async () => {
    const project = monorepo();
    const run = await inspector(
      [process.execPath, bin, 'mcp', '--root', project.root, ...readA],
      project.home,
    );
    expect(run.code, run.stderr).toBe(0);
    expectReadA(run, 'empty', project.root);
    expect(run.stderr).toContain('the client sent an empty roots list: no narrowing');
  }, 60_000);

  it('a word where a number belongs (startLine=two, which it sends as null) is explained, not blamed on null', async () => {
    const project = monorepo();
    const run = await inspector(
      [process.execPath, bin, 'mcp', '--root', project.root, ...readA, '--tool-arg', 'startLine=two'],
      project.home,
    );
    const text = run.result.content?.[0]?.text ?? '';
    expect(text).toMatch(/^INVALID_INPUT: /);
    expect(text).toContain(
      'startLine arrived as null: if you gave a value that is not a number (such as "two")',
    );
  }, 60_000);

  it.each<RootsCase>(['equal', 'parent', 'child'])(
    'over stdio, with a client root %s to --root, serves their intersection',
    async (kind) => {
      const project = monorepo();
      const config = inspectorConfig(
        project.home,
        { command: process.execPath, args: [bin, 'mcp', '--root', project.root] },
        rootsFor(kind, project),
      );
      const run = await inspector(['--config', config, '--server', 'tally', ...readA], project.home);
      expectReadA(run, kind, project.root);
    },
    60_000,
  );

  it('over HTTP, with its default settings, every call is answered in under 2 s and the server lives on', async () => {
    const project = monorepo();
    const server = await startHttpTally(project.root, project.home);
    const run = await inspector([server.url, ...readA], project.home);
    expect(run.code, run.stderr).toBe(0);
    expectReadA(run, 'empty', project.root);
    // The whole Inspector process (start-up, initialize, tools/list, the call) took less than
    // the 60 s the lost roots/list used to hold the call for.
    expect(run.ms).toBeLessThan(30_000);
    expect(server.stderr()).toContain('the client sent an empty roots list: no narrowing');
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it.each<RootsCase>(['equal', 'parent', 'child'])(
    'over HTTP, with a client root %s to --root, serves their intersection',
    async (kind) => {
      const project = monorepo();
      const server = await startHttpTally(project.root, project.home);
      const config = inspectorConfig(
        project.home,
        { type: 'http', url: server.url },
        rootsFor(kind, project),
      );
      const run = await inspector(['--config', config, '--server', 'tally', ...readA], project.home);
      expectReadA(run, kind, project.root);
      expect(server.child.exitCode).toBeNull();
    },
    60_000,
  );
});

async function timedCall(client: Client, path: string) {
  const started = performance.now();
  const result = await client.callTool({ name: 'fs_read', arguments: { path } });
  return { result, ms: performance.now() - started };
}

function rootsClient(answer: () => Promise<{ roots: { uri: string }[] }>) {
  const client = new Client(
    { name: 'roots-test', version: '1.0.0' },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, answer);
  return client;
}

const failOpenLines = (root: string) => readFileSync(join(root, '.tally', 'fail-open.jsonl'), 'utf8');

describe('a scripted SDK client that advertises roots, against `tally mcp`', () => {
  it('over HTTP: every call answered in under 2 s; roots/list_changed is asked again and applied', async () => {
    const project = monorepo();
    const server = await startHttpTally(project.root, project.home);
    let roots = [join(project.root, 'sub')];
    const client = rootsClient(async () => ({
      roots: roots.map((root) => ({ uri: pathToFileURL(root).href })),
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const inSub = await timedCall(client, 'sub/b.txt');
    expect(inSub.result.structuredContent).toMatchObject({ ok: true, content: 'sub file' });
    const outside = await timedCall(client, 'a.txt');
    expect(outside.result.isError).toBe(true);
    // The client widens its roots to the monorepo's top: --root is whole again, never more.
    roots = [project.top];
    await client.sendRootsListChanged();
    const widened = await timedCall(client, 'a.txt');
    expect(widened.result.structuredContent).toMatchObject({ ok: true, content: 'top file' });
    const outsideRoot = await timedCall(client, join(project.top, 'packages'));
    expect(outsideRoot.result.isError).toBe(true);
    for (const call of [inSub, outside, widened, outsideRoot]) expect(call.ms).toBeLessThan(2000);
    await client.close();
    expect(server.child.exitCode).toBeNull();
  }, 30_000);

  it('over HTTP: a client that never answers roots/list still gets answers, and the server outlives the deadline', async () => {
    const project = monorepo();
    const server = await startHttpTally(project.root, project.home, { TALLY_MCP_ROOTS_TIMEOUT_MS: '100' });
    const client = rootsClient(() => new Promise(() => {}));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const first = await timedCall(client, 'a.txt');
    expect(first.result.structuredContent).toMatchObject({ ok: true, content: 'top file' });
    // Asked once, given up on after the deadline; later calls do not wait for it again.
    expect(first.ms).toBeLessThan(2000);
    const second = await timedCall(client, 'sub/b.txt');
    expect(second.result.structuredContent).toMatchObject({ ok: true });
    expect(second.ms).toBeLessThan(first.ms);
    // The roots request stays pending for 20 deadlines (a late answer would still apply), then
    // times out with the very McpError -32001 that used to kill the process: now caught.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(server.stderr()).toContain('roots/list failed (MCP error -32001: Request timed out)');
    expect(server.child.exitCode).toBeNull();
    const third = await timedCall(client, 'a.txt');
    expect(third.result.structuredContent).toMatchObject({ ok: true });
    expect(failOpenLines(project.root)).toContain('"why":"roots-unavailable"');
    expect(server.stderr()).toContain('the client has not answered roots/list within 100 ms');
    expect(server.stderr()).not.toContain('unhandled');
    await client.close();
  }, 30_000);

  it('over stdio: roots are asked after initialized and again on roots/list_changed', async () => {
    const project = monorepo();
    let roots = [join(project.root, 'sub')];
    const client = rootsClient(async () => ({
      roots: roots.map((root) => ({ uri: pathToFileURL(root).href })),
    }));
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--root', project.root],
        env: cleanEnv(project.home),
        stderr: 'pipe',
      }),
    );
    expect((await timedCall(client, 'a.txt')).result.isError).toBe(true);
    roots = [project.root];
    await client.sendRootsListChanged();
    const after = await timedCall(client, 'a.txt');
    expect(after.result.structuredContent).toMatchObject({ ok: true, content: 'top file' });
    expect(after.ms).toBeLessThan(2000);
    await client.close();
  }, 30_000);

  it('over stdio: a client that never answers roots/list gets answers and the server stays up', async () => {
    const project = monorepo();
    const client = rootsClient(() => new Promise(() => {}));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--root', project.root],
      env: cleanEnv(project.home, { TALLY_MCP_ROOTS_TIMEOUT_MS: '300' }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await client.connect(transport);
    const first = await timedCall(client, 'a.txt');
    expect(first.result.structuredContent).toMatchObject({ ok: true, content: 'top file' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const later = await timedCall(client, 'sub/b.txt');
    expect(later.result.structuredContent).toMatchObject({ ok: true, content: 'sub file' });
    expect(later.ms).toBeLessThan(2000);
    expect(stderr).toContain('the client has not answered roots/list within 300 ms');
    expect(failOpenLines(project.root)).toContain('"why":"roots-unavailable"');
    await client.close();
  }, 30_000);
});

describe("`tally mcp` and the project's .tally folder", () => {
  it('keeps .tally out of fs_list and refuses it even when the ledger lives elsewhere', async () => {
    const project = monorepo();
    mkdirSync(join(project.root, '.tally', 'recipes'), { recursive: true });
    writeFileSync(join(project.root, '.tally', 'recipes', 'login.json'), '{"password":"hunter2"}');
    const client = new Client({ name: 'tally-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--root', project.root],
        env: cleanEnv(project.home, { TALLY_LEDGER: join(tempDir(), 'elsewhere.db') }),
        stderr: 'pipe',
      }),
    );
    const listed = await client.callTool({ name: 'fs_list', arguments: { path: '.' } });
    const names = (listed.structuredContent as { entries: { name: string }[] }).entries.map(
      (entry) => entry.name,
    );
    expect(names).toEqual(['a.txt', 'sub']);
    const read = await client.callTool({ name: 'fs_read', arguments: { path: '.tally/recipes/login.json' } });
    expect(read.isError).toBe(true);
    expect((read.content as { text: string }[])[0]?.text).toContain('(protected-path)');
    await client.close();
  }, 30_000);
});

describe('the process guard of `tally mcp`', () => {
  it('logs a promise rejected with nobody waiting as a fail-open and keeps the process alive', async () => {
    const home = tempDir();
    const log = join(home, 'fail-open.jsonl');
    const module = pathToFileURL(join(repo, 'dist', 'surfaces', 'cli', 'mcp-command.js')).href;
    const script = `const m = await import(${JSON.stringify(module)});
m.keepServingOnUnhandledRejection(${JSON.stringify(log)});
Promise.reject(new Error('McpError -32001: Request timed out'));
setTimeout(() => process.stdout.write('still serving'), 200);`;
    const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number }>(
      (resolve) => {
        execFile(
          process.execPath,
          ['--input-type=module', '-e', script],
          { cwd: dirname(log) },
          (error, out, err) => resolve({ stdout: out, stderr: err, code: error ? 1 : 0 }),
        );
      },
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('still serving');
    expect(stderr).toContain('Request timed out');
    expect(JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({
      component: 'mcp-server',
      why: 'unhandled-rejection',
    });
  });
});
