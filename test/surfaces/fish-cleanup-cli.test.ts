import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

/** A demo-app session made by hand, as a user would copy it from a browser: cookie and CSRF token. */
async function handMadeSession(baseUrl: string): Promise<{ cookie: string; csrf: string }> {
  const login = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'email=demo%40tally.test&password=demo-password',
    redirect: 'manual',
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await (await fetch(`${baseUrl}/projects`, { headers: { cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1] as string;
  expect(cookie).toMatch(/^demo_sid=/);
  expect(csrf).toMatch(/^[0-9a-f]+$/);
  return { cookie, csrf };
}

/** `tally fish` of 2 suites with 1 test each through --header only (no --login): the run keeps no credentials. */
async function runWithHeaders(cwd: string) {
  const { app, seen } = await demoApp();
  const session = await handMadeSession(app.url);
  const headers = ['--header', `Cookie: ${session.cookie}`, '--header', `x-csrf-token: ${session.csrf}`];
  const fish = await runTally(
    [
      'fish',
      '2 suites with 1 test each',
      '--captures',
      BUNDLED_HAR,
      '--base-url',
      app.url,
      '--scope',
      '/projects/alpha-shop',
      ...headers,
    ],
    { cwd },
  );
  expect(fish.code).toBe(0);
  const runId = /run (run_\w+)/.exec(fish.stdout)?.[1] as string;
  expect(app.store.suites.size + app.store.tests.size).toBe(4);
  return { app, seen, runId, session, headers };
}

const deletes = (seen: { method: string }[]) => seen.filter((request) => request.method === 'DELETE').length;

describe('tally fish cleanup: credentials and concurrent cleanups (issue 23, finding 11)', () => {
  it('without credentials it stops at the first 401, sends no DELETE, says "authentication failed", exits 2', async () => {
    const cwd = tempDir();
    const { app, seen, runId } = await runWithHeaders(cwd);
    const before = seen.length;
    const cleanup = await runTally(['fish', 'cleanup', runId], { cwd });
    expect(cleanup.code).toBe(2);
    expect(cleanup.stdout).toBe('');
    const lines = cleanup.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^tally: Cleanup of ${runId} stopped, nothing deleted: authentication failed: GET /api/alpha-shop/\\S+ answered 401 \\(Login required: sign in at /login first\\)\\. The run kept no credentials: if it used --header, pass the same --header values again\\. Pass --login RECIPE .* or --header "Authorization: Bearer \\$TOKEN"\\.`,
      ),
    );
    // One refused read, then nothing: no DELETE, every item still there.
    expect(seen.length - before).toBe(1);
    expect(deletes(seen)).toBe(0);
    expect(app.store.suites.size + app.store.tests.size).toBe(4);

    const json = await runTally(['fish', 'cleanup', runId, '--json'], { cwd });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'AUTH_FAILED', details: { runId, method: 'GET', status: 401 } },
    });
  });

  it('a session without its CSRF token: one DELETE refused with 403, then it stops; with both headers it cleans all', async () => {
    const cwd = tempDir();
    const { app, seen, runId, session, headers } = await runWithHeaders(cwd);
    const cookieOnly = await runTally(['fish', 'cleanup', runId, '--header', `Cookie: ${session.cookie}`], {
      cwd,
    });
    expect(cookieOnly.code).toBe(2);
    expect(cookieOnly.stderr).toMatch(
      /authentication failed: DELETE \/api\/alpha-shop\/tests\/\d+ answered 403 \(Invalid CSRF token[^)]*\)\. The --header values given were refused\./,
    );
    expect(deletes(seen)).toBe(1);
    const cleaned = await runTally(['fish', 'cleanup', runId, ...headers], { cwd });
    expect(cleaned.code).toBe(0);
    expect(cleaned.stdout).toContain(`Cleaned 4 of 4 resources created by ${runId}: 4 deleted and confirmed`);
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
  });

  it('two cleanups of one run at once: only one deletes; the other says another cleanup is running (exit 3)', async () => {
    const cwd = tempDir();
    const { app, runId, headers } = await runWithHeaders(cwd);
    const [first, second] = await Promise.all([
      runTally(['fish', 'cleanup', runId, ...headers], { cwd }),
      runTally(['fish', 'cleanup', runId, ...headers], { cwd }),
    ]);
    const deletedBy = (output: string) => Number(/: (\d+) deleted and confirmed/.exec(output)?.[1] ?? 0);
    // Whichever way they interleave, the four deletions are claimed once, not once by each.
    expect(deletedBy(first.stdout) + deletedBy(second.stdout)).toBe(4);
    for (const result of [first, second]) {
      if (result.code === 3) expect(result.stderr).toMatch(`Another cleanup of ${runId} is running (process`);
      else expect(result.code, result.stderr).toBe(0);
    }
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
    expect(existsSync(join(cwd, '.tally', `cleanup-${runId}.lock`))).toBe(false);
  });

  it('a lock held by a live process refuses; one left by a process that is gone is taken over', async () => {
    const cwd = tempDir();
    const { app, seen, runId, headers } = await runWithHeaders(cwd);
    const lock = join(cwd, '.tally', `cleanup-${runId}.lock`);
    mkdirSync(join(cwd, '.tally'), { recursive: true });
    const startedAt = '2026-01-01T00:00:00.000Z';
    // This test's own process: alive for as long as the cleanup runs.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), startedAt }));
    const before = seen.length;
    const refused = await runTally(['fish', 'cleanup', runId, ...headers], { cwd });
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim()).toBe(
      `tally: Another cleanup of ${runId} is running (process ${process.pid} on ${hostname()}, since ${startedAt}). Wait for it to end, then run \`tally fish cleanup ${runId}\` again to see what is left. If that process is gone, delete ${lock}.`,
    );
    expect(seen.length).toBe(before);
    // A process that has exited: its pid is free (and not reused this soon).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(lock, JSON.stringify({ pid: Number(gone.stdout), host: hostname(), startedAt }));
    const taken = await runTally(['fish', 'cleanup', runId, ...headers], { cwd });
    expect(taken.code).toBe(0);
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });
});
