import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runTally, type TallyRun, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';
import { describePostgres } from '../support/describe-postgres.js';

// The server trusts 127.0.0.1, so any password is accepted: the URL carries one to prove that
// no output, list or file of Tally's ever shows it.
const PASSWORD = 'pw-NEVER-PRINTED-4711';

describePostgres('a team ledger in PostgreSQL, through the CLI', (server) => {
  const withPassword = (url: string) => url.replace('postgres@', `postgres:${PASSWORD}@`);
  const noPassword = (...runs: TallyRun[]) => {
    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  };

  it('demo, runs, runs show, report, stats, verify --live and fish cleanup all work against one postgres:// URL', async () => {
    const url = withPassword(server.createDatabase('team'));
    const state = tempDir('tally-state-');
    const [project, laptop] = [tempDir(), tempDir()];
    const env = { XDG_STATE_HOME: state };

    const demo = await runTally(['demo', '--json', '--ledger', url], { cwd: project, env });
    expect(demo.code, demo.stderr).toBe(0);
    const demoRun = (JSON.parse(demo.stdout) as { result: { runId: string } }).result.runId;
    // A database is not a file: nothing written beside the project, nothing in the user's list.
    expect(existsSync(join(project, '.tally', 'ledger.db'))).toBe(false);
    expect(existsSync(join(state, 'tally', 'ledgers.jsonl'))).toBe(false);

    // Another "machine" (its own working dir) reads the same runs through TALLY_LEDGER.
    const teamEnv = { ...env, TALLY_LEDGER: url };
    const runs = await runTally(['runs', '--json'], { cwd: laptop, env: teamEnv });
    expect(runs.code, runs.stderr).toBe(0);
    const listed = JSON.parse(runs.stdout) as { id: string; agent: string; status: string; ledger: string }[];
    // The demo's run and its read-back run.
    expect(listed.map((run) => run.agent).sort()).toEqual(['fisherman', 'fisherman-read-back']);
    expect(listed.find((run) => run.id === demoRun)).toMatchObject({ agent: 'fisherman', status: 'success' });
    expect(listed[0]?.ledger).toMatch(/^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/team$/);

    const shown = await runTally(['runs', 'show', demoRun], { cwd: laptop, env: teamEnv });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('2 suites with 3 tests each');

    const out = join(laptop, 'report.html');
    const report = await runTally(['report', demoRun, '--out', out], { cwd: laptop, env: teamEnv });
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(demoRun);

    const stats = await runTally(['stats', '--json'], { cwd: laptop, env: teamEnv });
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      runs: 2,
      endingReasons: { finished: 2 },
      statusByAgent: { fisherman: { runs: 1, success: 1 } },
    });

    // A fish run on one machine, its cleanup from another, both in the team's database.
    const { app } = await demoApp();
    const fish = await runTally(
      [
        'fish',
        '1 suite',
        '--captures',
        BUNDLED_HAR,
        '--base-url',
        app.url,
        '--scope',
        '/projects/alpha-shop',
        '--login',
        'demo',
        '--json',
      ],
      { cwd: project, env: teamEnv },
    );
    expect(fish.code, fish.stderr).toBe(0);
    const fishRun = (JSON.parse(fish.stdout) as { runId: string }).runId;
    expect(app.store.suites.size).toBe(1);
    // Anyone re-checks the run from the team's database: the verdict reproduced, the suite still there.
    const verified = await runTally(['verify', fishRun, '--live', '--json'], { cwd: laptop, env: teamEnv });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ matches: true, drifted: false });
    const cleanup = await runTally(['fish', 'cleanup', fishRun, '--json'], { cwd: laptop, env: teamEnv });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    const cleaned = JSON.parse(cleanup.stdout) as { runId: string; cleanedRunId: string; status: string };
    expect(cleaned).toMatchObject({ cleanedRunId: fishRun, status: 'success' });
    expect(app.store.suites.size).toBe(0);
    // After the cleanup the recorded verdict still reproduces, but the suite it created is gone.
    const drift = await runTally(['verify', fishRun, '--live', '--json'], { cwd: laptop, env: teamEnv });
    expect(drift.code, drift.stdout + drift.stderr).toBe(4);
    expect(JSON.parse(drift.stdout)).toMatchObject({ matches: true, drifted: true });

    const after = await runTally(['runs', '--json'], { cwd: project, env: teamEnv });
    const afterIds = (JSON.parse(after.stdout) as { id: string }[]).map((run) => run.id);
    expect(afterIds.slice(0, 2)).toEqual([cleaned.runId, fishRun]);
    expect(afterIds).toContain(demoRun);
    expect(afterIds).toHaveLength(4);
    const check = await runTally(['ledger', 'check'], { cwd: laptop, env: teamEnv });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/: ok \(run starts, entry order per run, ends, kinds\)/);
    const doctor = await runTally(['doctor'], { cwd: laptop, env: teamEnv });
    expect(doctor.stdout).toMatch(/Ledger.*postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/team answers/);
    noPassword(demo, runs, shown, report, stats, fish, verified, cleanup, drift, after, check, doctor);
    expect(existsSync(join(state, 'tally', 'ledgers.jsonl'))).toBe(false);
  }, 180_000);

  it('ledger copy moves a SQLite ledger into PostgreSQL and back, idempotently', async () => {
    const url = withPassword(server.createDatabase('copied'));
    const project = tempDir();
    const demo = await runTally(['demo', '--json'], { cwd: project });
    expect(demo.code, demo.stderr).toBe(0);
    const runId = (JSON.parse(demo.stdout) as { result: { runId: string } }).result.runId;
    const file = join(project, '.tally', 'ledger.db');
    const back = join(tempDir(), 'back.db');

    const copies: TallyRun[] = [];
    for (const [from, to] of [
      [file, url],
      [file, url],
      [url, back],
      [url, back],
    ] as const) {
      const copy = await runTally(['ledger', 'copy', from, to, '--json'], { cwd: project });
      expect(copy.code, copy.stderr).toBe(0);
      copies.push(copy);
    }
    const [first, second, third, fourth] = copies.map(
      (copy) =>
        JSON.parse(copy.stdout) as { runs: number; entries: number; runsAdded: number; entriesAdded: number },
    );
    // The demo records two runs: its own and the read-back.
    expect(first?.runs).toBe(2);
    expect(first?.entries).toBeGreaterThanOrEqual(8);
    expect(first).toMatchObject({ runsAdded: 2, entriesAdded: first?.entries });
    expect(second).toMatchObject({ runs: 2, runsAdded: 0, entriesAdded: 0 });
    expect(third).toMatchObject({ runs: 2, runsAdded: 2, entriesAdded: first?.entries });
    expect(fourth).toMatchObject({ runsAdded: 0, entriesAdded: 0 });
    noPassword(...copies);

    // The same run, entry for entry, in all three.
    const shows = await Promise.all(
      [file, url, back].map((ledger) => runTally(['runs', 'show', runId, '--json', '--ledger', ledger])),
    );
    for (const shown of shows) expect(shown.code, shown.stderr).toBe(0);
    const [fromFile, fromDatabase, fromCopy] = shows.map((shown) => JSON.parse(shown.stdout));
    expect(fromDatabase).toEqual(fromFile);
    expect(fromCopy).toEqual(fromFile);
  }, 120_000);

  it('an unreachable server: exit 3, a clear message, the password never shown', async () => {
    const result = await runTally(['runs', '--ledger', `postgres://tally:${PASSWORD}@127.0.0.1:1/ledger`]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'Cannot reach the PostgreSQL ledger at postgres://tally:***@127.0.0.1:1/ledger',
    );
    noPassword(result);
  });
});
