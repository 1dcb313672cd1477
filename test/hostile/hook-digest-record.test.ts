import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDigests, writeDigest } from '../../src/packs/records/digests/digest-store.js';
import { tempDir } from '../helpers.js';
import { LIMIT_MS, mkfifo, runHook } from '../packs/records/hostile-fixture.js';

const payload = (fields: Record<string, unknown>) =>
  JSON.stringify({
    session_id: 'b3f1c2d4',
    tool_name: 'Skill',
    tool_response: { status: 'forked', success: true, result: 'GOAL: release a version\nGOVERNS:\n- x.md\n' },
    ...fields,
  });

const failOpens = (log: string): { why: string; component: string }[] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

describe('tally hook digest-record: always exit 0, in bounded time, whatever the payload', () => {
  it('cwd "/proc" returns at once (Node’s mkdir -p spins forever there) and creates nothing', async () => {
    const state = tempDir('tally-state-');
    const run = await runHook(payload({ cwd: '/proc' }), { env: { XDG_STATE_HOME: state } });
    expect(run).toMatchObject({ code: 0, signal: null });
    expect(run.ms).toBeLessThan(LIMIT_MS);
    expect(existsSync('/proc/.tally')).toBe(false);
    expect(failOpens(join(state, 'tally', 'fail-open.jsonl'))).toEqual([
      expect.objectContaining({ component: 'hook-digest-record', why: 'state-dir-unowned' }),
    ]);
  });

  it.each([
    ['a NUL byte', '/tmp/a\u0000b'],
    ['5,000 characters', `/${'a'.repeat(5000)}`],
    ['a relative path', 'relative/dir'],
  ])('a cwd with %s is declined with a reason, not a stack trace', async (_name, cwd) => {
    const state = tempDir('tally-state-');
    const run = await runHook(payload({ cwd }), { env: { XDG_STATE_HOME: state } });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toMatch(
      /payload-shape-unrecognized \(the payload's cwd cannot be a working directory/,
    );
    expect(failOpens(join(state, 'tally', 'fail-open.jsonl'))).toEqual([
      expect.objectContaining({ why: 'payload-shape-unrecognized' }),
    ]);
  });

  it('a cwd where Tally owns nothing gets no .tally: the reason goes to the user-level state folder', async () => {
    const cwd = tempDir();
    const state = tempDir('tally-state-');
    const run = await runHook(payload({ cwd }), { env: { XDG_STATE_HOME: state } });
    expect(run.code).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    expect(run.stderr).toContain(`${cwd} has no .tally folder`);
    expect(failOpens(join(state, 'tally', 'fail-open.jsonl'))).toEqual([
      expect.objectContaining({ why: 'state-dir-unowned' }),
    ]);
    expect(statSync(join(state, 'tally')).mode & 0o777).toBe(0o700);
  });

  it('a cwd with an existing .tally (a Tally command ran there) gets the digest', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.tally'));
    const run = await runHook(payload({ cwd }));
    expect(run.code).toBe(0);
    const digests = readdirSync(join(cwd, '.tally', 'digests'));
    expect(digests).toHaveLength(1);
    expect(statSync(join(cwd, '.tally', 'digests')).mode & 0o777).toBe(0o700);
  });

  it('a symlinked .tally/digests is refused: its target is not chmod-ed, written to, or reaped', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.tally'));
    const target = tempDir('tally-victim-');
    const old = join(target, 'b3f1c2d4.digest.0000000000001.abc');
    writeFileSync(old, 'someone else’s file');
    utimesSync(old, new Date(1000), new Date(1000));
    const modeBefore = statSync(target).mode & 0o777;
    symlinkSync(target, join(cwd, '.tally', 'digests'));
    const run = await runHook(payload({ cwd }));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/store-unwritable \(.*digests is a symbolic link/);
    expect(readdirSync(target)).toEqual(['b3f1c2d4.digest.0000000000001.abc']);
    expect(statSync(target).mode & 0o777).toBe(modeBefore);
    expect(failOpens(join(cwd, '.tally', 'fail-open.jsonl'))).toEqual([
      expect.objectContaining({ why: 'store-unwritable' }),
    ]);
  });

  it('a symlinked .tally is not Tally’s: nothing is written through it', async () => {
    const cwd = tempDir();
    const target = tempDir('tally-victim-');
    symlinkSync(target, join(cwd, '.tally'));
    const state = tempDir('tally-state-');
    const run = await runHook(payload({ cwd }), { env: { XDG_STATE_HOME: state } });
    expect(run.code).toBe(0);
    expect(readdirSync(target)).toEqual([]);
    expect(failOpens(join(state, 'tally', 'fail-open.jsonl'))).toEqual([
      expect.objectContaining({ why: 'store-unwritable' }),
    ]);
  });

  it('a payload over 16 MiB is declined as malformed-payload without reading it all', async () => {
    const root = tempDir();
    const run = await runHook(payload({ tool_response: 'x'.repeat(17 * 1024 * 1024) }), {
      env: { TALLY_RECORDS_ROOT: root },
    });
    expect(run.code).toBe(0);
    expect(failOpens(join(root, '.tally', 'fail-open.jsonl'))).toEqual([
      expect.objectContaining({ why: 'malformed-payload' }),
    ]);
    expect(existsSync(join(root, '.tally', 'digests'))).toBe(false);
  });

  it('stdin held open gives up after the 10 s deadline like the gate hooks: exit 0, malformed-payload logged (issue 19, item 11)', async () => {
    const root = tempDir();
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '..', '..', 'bin', 'tally.js'), 'hook', 'digest-record'],
      {
        cwd: tempDir(),
        env: {
          ...process.env,
          TALLY_RECORDS_ROOT: root,
          TALLY_FAIL_OPEN_LOG: '',
          XDG_STATE_HOME: tempDir('tally-state-'),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // Half a payload, and the pipe never closed (a host that forgets to end stdin).
    child.stdin.write(payload({}).slice(0, 40));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(killer);
    child.stdin.destroy();
    const ms = performance.now() - started;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(ms).toBeGreaterThan(9_000);
    expect(ms).toBeLessThan(15_000);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(failOpens(join(root, '.tally', 'fail-open.jsonl'))).toEqual([
      expect.objectContaining({ why: 'malformed-payload' }),
    ]);
  }, 25_000);
});

describe('the digest store never follows a link', () => {
  it('writeDigest refuses a symlinked folder and a folder under a symlinked .tally', () => {
    const target = tempDir('tally-victim-');
    const base = tempDir();
    symlinkSync(target, join(base, 'digests'));
    expect(writeDigest(join(base, 'digests'), 's', 'x', { ttlDays: 2 })).toMatchObject({
      refused: 'store-unwritable',
      why: expect.stringContaining('is a symbolic link'),
    });
    const project = tempDir();
    symlinkSync(target, join(project, '.tally'));
    expect(writeDigest(join(project, '.tally', 'digests'), 's', 'x', { ttlDays: 2 })).toMatchObject({
      refused: 'store-unwritable',
    });
    expect(readdirSync(target)).toEqual([]);
  });

  it('writeDigest creates one level only: a missing parent is refused, never made', () => {
    const base = tempDir();
    expect(writeDigest(join(base, 'a', 'b', 'digests'), 's', 'x', { ttlDays: 2 })).toMatchObject({
      refused: 'store-unwritable',
    });
    expect(readdirSync(base)).toEqual([]);
  });

  it('readDigests reads no symlinked folder and skips a FIFO named like a digest', async () => {
    const dir = join(tempDir(), 'digests');
    writeDigest(dir, 's', 'real digest', { ttlDays: 2 });
    const fifo = join(dir, `s.digest.${String(Date.now()).padStart(13, '0')}.ff`);
    await mkfifo(fifo);
    const read = readDigests(dir, 's', { keep: 5, ttlDays: 2 });
    expect(read.digests.map((digest) => digest.text)).toEqual(['real digest']);
    const linked = join(tempDir(), 'digests');
    symlinkSync(dir, linked);
    expect(readDigests(linked, 's', { keep: 5, ttlDays: 2 })).toMatchObject({
      digests: [],
      refused: expect.stringContaining('symbolic link'),
    });
  });
});
