// `tally records query` through the resident server (`tally records serve`): the CLI asks a
// server of its root over a unix socket first, and must print exactly what the one-shot query
// prints, never wait long on a broken server, and never trust a socket in a folder others
// could write. Real processes, real files, real sockets.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import type { FailureLogMemo } from '../../src/packs/records/recall.js';
import { listStores } from '../../src/packs/records/stores.js';
import { runRecordsQueryWith } from '../../src/surfaces/cli/records-command.js';
import { residentTarget } from '../../src/surfaces/cli/records-resident-client.js';
import { tempDir } from '../helpers.js';
import { CACHE, corpus } from '../packs/records/records-fixture.js';

const TALLY_BIN = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  /** How many record files (`.md`) the CLI process itself stat-ed: 0 when a server answered. */
  recordStats: number;
}

// Counts the CLI's stats of record files: the one-shot query stats every one, a query the
// server answered none.
function statProbe(): { preload: string; out: string } {
  const dir = tempDir('tally-probe-');
  const preload = join(dir, 'probe.cjs');
  const out = join(dir, 'count');
  writeFileSync(
    preload,
    `const fs = require('node:fs');
let count = 0;
const statSync = fs.statSync;
fs.statSync = function (path, ...rest) {
  if (String(path).endsWith('.md')) count++;
  return statSync.call(this, path, ...rest);
};
process.on('exit', () => fs.writeFileSync(${JSON.stringify(out)}, String(count)));`,
  );
  return { preload, out };
}

function baseEnv(runtime: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NO_COLOR: '1',
    TALLY_RECORDS_ROOT: '',
    TALLY_RECORDS_STORES: '',
    TALLY_RECORDS_INDEX: '',
    TALLY_RECORDS_INDEX_CHECK: '',
    TALLY_RECORDS_RESIDENT: '',
    TALLY_RECORDS_RESIDENT_IDLE_EXIT: '',
    TALLY_DEBUG: '',
    TALLY_FULL_CLI: '',
    XDG_CACHE_HOME: CACHE,
    XDG_RUNTIME_DIR: runtime,
    ...extra,
  };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  const probe = statProbe();
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--require', probe.preload, TALLY_BIN, ...args],
      { cwd: tempDir(), env },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          stdout,
          stderr,
          recordStats: existsSync(probe.out) ? Number(readFileSync(probe.out, 'utf8')) : -1,
        }),
    );
    child.stdin?.end('');
  });
}

/** What the user sees: the exit code and both streams. */
const printed = ({ code, stdout, stderr }: Outcome) => ({ code, stdout, stderr });

const servers: ChildProcess[] = [];
const fakes: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.kill();
  for (const fake of fakes.splice(0)) fake.close();
});

function serve(root: string, env: NodeJS.ProcessEnv, idleExit = 30): ChildProcess {
  const child = spawn(
    process.execPath,
    [TALLY_BIN, 'records', 'serve', '--root', root, '--idle-exit', String(idleExit)],
    {
      env,
      stdio: 'ignore',
    },
  );
  servers.push(child);
  return child;
}

async function until(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function socketOf(root: string, env: NodeJS.ProcessEnv): string {
  const target = residentTarget({ root }, env);
  if ('miss' in target) throw new Error(target.why);
  return target.socket;
}

const ONE_SHOT = { TALLY_RECORDS_RESIDENT: '0' };

describe('records query through the resident server', () => {
  it('prints byte-identical answers with and without the server, in every mode, without stat-ing records', async () => {
    const root = corpus();
    const env = baseEnv(tempDir('tally-run-'));
    serve(root, env);
    const socket = socketOf(root, env);
    await until(() => existsSync(socket), 'the server socket');
    const cases = [
      ['--keyword', 'migration'],
      ['--kind', 'procedure'],
      ['--kind', 'failure-mode', '--full'],
      ['--keyword', 'migration lock', '--json', '--limit', '1'],
      ['--recall', 'migration lock'],
      ['--recall', 'lock', '--json'],
      [
        '--cat',
        'references/procedures/run-a-schema-migration.md',
        'references/failure-modes/migration-lock.md',
      ],
      ['--list-stores'],
      ['--id', 'PROC-migrate'],
    ];
    for (const args of cases) {
      const query = ['records', 'query', '--root', root, ...args];
      const alone = await run(query, { ...env, ...ONE_SHOT });
      const resident = await run(query, env);
      expect(alone.stdout.length, args.join(' ')).toBeGreaterThan(0);
      expect(printed(resident), args.join(' ')).toEqual(printed(alone));
      expect(alone.recordStats, args.join(' ')).toBeGreaterThan(0);
      expect(resident.recordStats, args.join(' ')).toBe(0);
    }
    // An error is the CLI's own: the server declines, the one-shot path reports it the same way.
    const refused = ['records', 'query', '--root', root, '--cat', 'references/nope.md'];
    const alone = await run(refused, { ...env, ...ONE_SHOT });
    expect(alone.code).toBe(2);
    expect(await run(refused, env)).toMatchObject({
      code: alone.code,
      stdout: alone.stdout,
      stderr: alone.stderr,
    });
  });

  it('sees an in-place edit (same size, mtime put back), a new file, a removal and a rename at the very next query', async () => {
    const root = corpus();
    const env = baseEnv(tempDir('tally-run-'));
    serve(root, env);
    const socket = socketOf(root, env);
    await until(() => existsSync(socket), 'the server socket');
    const query = (...args: string[]) => run(['records', 'query', '--root', root, ...args], env);
    expect((await query('--keyword', 'migration')).stdout).toContain('Run a schema migration safely');

    const file = join(root, 'references/procedures/run-a-schema-migration.md');
    const before = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('migration safely', 'migration SAFELY'));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    const edited = await query('--keyword', 'migration');
    expect(edited.recordStats).toBe(0);
    expect(edited.stdout).toContain('Run a schema migration SAFELY');
    expect(edited.stdout).toBe(
      (await run(['records', 'query', '--root', root, '--keyword', 'migration'], { ...env, ...ONE_SHOT }))
        .stdout,
    );

    writeFileSync(
      join(root, 'references/procedures/zebra-crossing.md'),
      '---\nid: PROC-zebra\nkind: procedure\ndate: 2026-09-01\nstatus: active\ntitle: "Zebra crossing"\nkeywords: [zebra]\n---\n## Cross at the zebra\n',
    );
    expect((await query('--keyword', 'zebra')).stdout).toBe(
      'references/procedures/zebra-crossing.md — Cross at the zebra\n',
    );
    renameSync(
      join(root, 'references/procedures/zebra-crossing.md'),
      join(root, 'references/procedures/zebra-walk.md'),
    );
    expect((await query('--keyword', 'zebra')).stdout).toBe(
      'references/procedures/zebra-walk.md — Cross at the zebra\n',
    );
    rmSync(join(root, 'references/procedures/zebra-walk.md'));
    expect((await query('--keyword', 'zebra')).stdout).toBe('');
    // Stopped by a signal, the server takes its socket with it.
    servers.at(-1)?.kill('SIGTERM');
    await until(() => !existsSync(socket), 'the socket removed on SIGTERM', 10_000);
  });

  it('starts a server on the first query, answers from it next, and the server exits when idle', async () => {
    const root = corpus();
    const runtime = tempDir('tally-run-');
    const env = baseEnv(runtime, { TALLY_RECORDS_RESIDENT_IDLE_EXIT: '1' });
    const socket = socketOf(root, env);
    const alone = await run(['records', 'query', '--root', root, '--kind', 'procedure'], {
      ...env,
      ...ONE_SHOT,
    });
    expect(existsSync(socket)).toBe(false);
    const first = await run(['records', 'query', '--root', root, '--kind', 'procedure'], env);
    expect(first.recordStats).toBeGreaterThan(0);
    expect(printed(first)).toEqual(printed(alone));
    await until(() => existsSync(socket), 'the started server');
    const second = await run(['records', 'query', '--root', root, '--kind', 'procedure'], env);
    expect(second).toEqual({ ...printed(first), recordStats: 0 });
    // One second without a query: the server removes its socket and exits.
    await until(() => !existsSync(socket), 'the idle exit', 10_000);
    expect(readdirSync(join(runtime, 'tally'))).toEqual([]);
  });

  it('replaces a stale socket (its server gone) and answers correctly meanwhile', async () => {
    const root = corpus();
    const env = baseEnv(tempDir('tally-run-'), { TALLY_RECORDS_RESIDENT_IDLE_EXIT: '5' });
    const socket = socketOf(root, env);
    // A server killed without cleaning up: the socket file stays, nobody listens.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [
        '-e',
        `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, 'SIGKILL'))`,
      ]);
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    expect(existsSync(socket)).toBe(true);
    const alone = await run(['records', 'query', '--root', root, '--keyword', 'migration'], {
      ...env,
      ...ONE_SHOT,
    });
    const first = await run(['records', 'query', '--root', root, '--keyword', 'migration'], env);
    expect(printed(first)).toEqual(printed(alone));
    let answered: Outcome | undefined;
    for (let attempt = 0; attempt < 100 && answered?.recordStats !== 0; attempt++) {
      answered = await run(['records', 'query', '--root', root, '--keyword', 'migration'], env);
      expect(answered.stdout).toBe(alone.stdout);
      if (answered.recordStats !== 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answered?.recordStats).toBe(0);
  });

  it('two servers started at once end as one, which answers', async () => {
    const root = corpus();
    const env = baseEnv(tempDir('tally-run-'));
    const socket = socketOf(root, env);
    const exits = [serve(root, env), serve(root, env)].map(
      (child) => new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
    );
    // The one that finds the other listening exits 0 at once; the survivor stays.
    const first = await Promise.race(exits);
    expect(first).toBe(0);
    await until(() => existsSync(socket), 'the surviving server');
    const asked = await run(['records', 'query', '--root', root, '--kind', 'procedure'], env);
    expect(asked.recordStats).toBe(0);
    expect(asked.stdout).toContain('run-a-schema-migration.md');
  });

  it('falls back within its timeout when the server accepts and never answers', async () => {
    const root = corpus();
    const env = baseEnv(tempDir('tally-run-'), ONE_SHOT);
    const askEnv = { ...env, TALLY_RECORDS_RESIDENT: '' };
    const socket = socketOf(root, askEnv);
    let connections = 0;
    const hung = createServer(() => {
      connections++;
    });
    fakes.push(hung);
    await new Promise<void>((resolve) => hung.listen(socket, resolve));
    const alone = await run(['records', 'query', '--root', root, '--recall', 'lock'], env);
    const started = Date.now();
    const asked = await run(['records', 'query', '--root', root, '--recall', 'lock'], askEnv);
    // Loose hang guard: the acknowledgement timeout is 1 s, process start-up the rest.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(connections).toBe(1);
    expect(printed(asked)).toEqual(printed(alone));
  });

  it('never uses a socket folder open to other users, and the server refuses to start there', async () => {
    const root = corpus();
    const runtime = tempDir('tally-run-');
    const env = baseEnv(runtime);
    const socket = socketOf(root, env);
    chmodSync(join(runtime, 'tally'), 0o777);
    // Whoever could write there could answer our queries: this one lies.
    const liar = createServer((connection) => {
      connection.on('data', () =>
        connection.end(
          `${JSON.stringify({ t: 'ack' })}\n${JSON.stringify({ t: 'answer', code: 0, stdout: 8, stderr: 0 })}\nplanted\n`,
        ),
      );
    });
    fakes.push(liar);
    await new Promise<void>((resolve) => liar.listen(socket, resolve));
    const asked = await run(['records', 'query', '--root', root, '--keyword', 'migration'], env);
    expect(asked.stdout).not.toContain('planted');
    expect(asked.stdout).toBe(
      (await run(['records', 'query', '--root', root, '--keyword', 'migration'], { ...env, ...ONE_SHOT }))
        .stdout,
    );
    const refused = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [TALLY_BIN, 'records', 'serve', '--root', root, '--idle-exit', '1'],
        { env },
        (error, _stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code) : 0, stderr }),
      );
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/open to other users/);
    // The folder closed again: the same server is believed, so the refusal above is what kept it out.
    chmodSync(join(runtime, 'tally'), 0o700);
    expect((await run(['records', 'query', '--root', root, '--keyword', 'migration'], env)).stdout).toBe(
      'planted\n',
    );
  });
});

describe('the resident server keeps the failure log parsed between --recall queries', () => {
  it('parses it once per content, and still answers an edit made in between', async () => {
    const root = corpus();
    const failureLog: FailureLogMemo = {};
    const source = openRecordSource(root, listStores(root, {}), { noIndex: true });
    const ask = async (terms: string) => {
      let stdout = '';
      const code = await runRecordsQueryWith(
        { root, recall: terms },
        { out: (text) => (stdout += text), err: () => {}, open: () => source, failureLog },
      );
      expect(code).toBe(0);
      return stdout;
    };
    expect(await ask('race-condition')).toContain('mistakes.jsonl:4');
    const parsed = failureLog.last?.parsed;
    expect(parsed).toBeDefined();
    await ask('migration');
    expect(failureLog.last?.parsed).toBe(parsed);
    const log = join(root, 'mistakes.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replaceAll('race', 'zepo'));
    expect(await ask('race-condition')).not.toContain('mistakes.jsonl:4');
    expect(await ask('zepo')).toContain('mistakes.jsonl:4');
    expect(failureLog.last?.parsed).not.toBe(parsed);
  });
});
