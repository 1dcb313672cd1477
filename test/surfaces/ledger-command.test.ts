import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { openSqlite } from '../../src/core/sqlite/open-sqlite.js';
import { runTally, tempDir } from '../helpers.js';

/** A project whose ledger holds `count` finished runs, as agents write them. */
function projectWithRuns(
  count: number,
  agent = 'fisherman',
): { dir: string; ledger: string; runIds: string[] } {
  const dir = tempDir();
  const path = join(dir, '.tally', 'ledger.db');
  const ledger = Ledger.open(path);
  const runIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const run = ledger.startRun({ agent, task: `task ${index}` });
    run.append({
      kind: 'tool_call',
      name: 'http_request',
      outcome: 'rejected',
      data: { error: { code: 'HTTP_4XX' } },
    });
    run.append({ kind: 'guard', name: 'loop', outcome: 'nudge', data: {} });
    run.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
    runIds.push(run.runId);
  }
  ledger.close();
  return { dir, ledger: path, runIds };
}

describe('tally stats reads the ledgers tally runs reads (issue 23, finding 6)', () => {
  it('from an empty directory, stats counts the runs of every ledger of this user, as runs lists them', async () => {
    const alpha = projectWithRuns(2, 'fisherman');
    const beta = projectWithRuns(3, 'coder');
    const state = tempDir('tally-state-');
    mkdirSync(join(state, 'tally'));
    writeFileSync(
      join(state, 'tally', 'ledgers.jsonl'),
      `${JSON.stringify({ path: alpha.ledger })}\n${JSON.stringify({ path: beta.ledger })}\n`,
    );
    const empty = tempDir();
    const env = { XDG_STATE_HOME: state };
    const runs = JSON.parse((await runTally(['runs', '--json'], { cwd: empty, env })).stdout) as unknown[];
    expect(runs).toHaveLength(5);
    const stats = await runTally(['stats', '--json'], { cwd: empty, env });
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      runs: 5,
      endingReasons: { finished: 5 },
      statusByAgent: { fisherman: { runs: 2, success: 2 }, coder: { runs: 3, success: 3 } },
      recovery: { nudgedRuns: 5, finishedAfterNudge: 5, rate: 1 },
      guardFires: { 'loop:nudge': 5 },
    });
    const text = await runTally(['stats'], { cwd: empty, env });
    expect(text.stdout).toContain('Runs since');
    expect(text.stdout).toMatch(/: 5 \(in 2 ledgers\)/);
    // --ledger still names one.
    const one = await runTally(['stats', '--json', '--ledger', alpha.ledger], { cwd: empty, env });
    expect(JSON.parse(one.stdout)).toMatchObject({ runs: 2 });
    expect(readdirSync(empty)).toEqual([]);
  });

  it('with no ledger anywhere, says so and creates none', async () => {
    const empty = tempDir();
    const stats = await runTally(['stats'], { cwd: empty });
    expect(stats).toMatchObject({ code: 0, stdout: 'No ledger of yours yet: nothing to count.\n' });
    expect(readdirSync(empty)).toEqual([]);
  });
});

describe('tally ledger check | purge | vacuum', () => {
  it('check: exit 0 on a sound ledger, exit 1 naming the run whose entries lost their order', async () => {
    const project = projectWithRuns(2);
    const ok = await runTally(['ledger', 'check'], { cwd: project.dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(': ok (SQLite integrity');
    const raw = openSqlite(project.ledger);
    raw
      .prepare("INSERT INTO entries VALUES (?, 9, '2026-01-01T00:00:00.000Z', 'claim', NULL, NULL, '{}')")
      .run(project.runIds[1]);
    raw.close();
    const broken = await runTally(['ledger', 'check', '--json'], { cwd: project.dir });
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      ok: false,
      problems: [
        {
          check: 'sequence',
          message: `run ${project.runIds[1]}: 4 entries numbered 1..9 (a gap or a duplicate)`,
        },
      ],
    });
  });

  it('purge --before: a dry run first, then whole runs go (none here is old enough), and bad dates are usage errors', async () => {
    const project = projectWithRuns(3);
    const dry = await runTally(['ledger', 'purge', '--before', '2999-01-01', '--dry-run', '--json'], {
      cwd: project.dir,
    });
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, runs: 3, entries: 9 });
    const kept = await runTally(['ledger', 'purge', '--before', '30d'], { cwd: project.dir });
    expect(kept).toMatchObject({ code: 0 });
    expect(kept.stdout).toContain('Nothing to purge');
    const purged = await runTally(['ledger', 'purge', '--before', '2999-01-01'], { cwd: project.dir });
    expect(purged.stdout).toMatch(/^Purged 3 runs \(9 entries\) wholly before 2999-01-01T00:00:00.000Z/);
    const vacuum = await runTally(['ledger', 'vacuum'], { cwd: project.dir });
    expect(vacuum.code).toBe(0);
    expect(vacuum.stdout).toMatch(/^Vacuumed .*ledger\.db: /);
    const runs = await runTally(['runs', '--json', '--ledger', project.ledger]);
    expect(JSON.parse(runs.stdout)).toEqual([]);

    const bad = await runTally(['ledger', 'purge', '--before', 'last week'], { cwd: project.dir });
    expect(bad).toMatchObject({
      code: 2,
      stderr: 'tally: --before "last week" is neither a duration (90d, 12h, 30m) nor a date (2026-11-01).\n',
    });
  });

  it('no ledger where it looks: exit 3 naming the path, nothing created', async () => {
    const empty = tempDir();
    for (const args of [
      ['ledger', 'check'],
      ['ledger', 'vacuum'],
      ['ledger', 'purge', '--before', '90d'],
    ]) {
      const result = await runTally(args, { cwd: empty });
      expect(result.code, args.join(' ')).toBe(3);
      expect(result.stderr).toContain(`no ledger at ${join(empty, '.tally', 'ledger.db')}`);
    }
    expect(readdirSync(empty)).toEqual([]);
  });
});
