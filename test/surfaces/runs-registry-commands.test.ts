import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

interface EventLine {
  type: string;
  runId: string;
  agent: string;
}

/** The NDJSON `--events` lines of a run's stderr (other stderr lines are not events). */
const eventsOf = (stderr: string): EventLine[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as EventLine);

const ledgerOf = (project: string) => join(project, '.tally', 'ledger.db');

describe('tally demo and tally fish cleanup are runs like any other', () => {
  it('tally demo: observed (--events), listed in the user list, found by runs, runs show and report from another folder', async () => {
    const state = tempDir('tally-state-');
    const [project, elsewhere] = [tempDir(), tempDir()];
    const env = { XDG_STATE_HOME: state };

    const demo = await runTally(['demo', '--json', '--events'], { cwd: project, env });
    expect(demo.code, demo.stderr).toBe(0);
    const { result, allConfirmed } = JSON.parse(demo.stdout) as {
      result: { runId: string };
      allConfirmed: boolean;
    };
    expect(allConfirmed).toBe(true);
    // The same observer as `tally fish`: the run's events on stderr, stdout still one document.
    const events = eventsOf(demo.stderr);
    expect(events[0]).toMatchObject({ type: 'run-start', runId: result.runId, agent: 'fisherman' });
    expect(events.filter((event) => event.type === 'entry').length).toBeGreaterThanOrEqual(8);

    const registry = readFileSync(join(state, 'tally', 'ledgers.jsonl'), 'utf8');
    expect(
      registry
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).path),
    ).toEqual([ledgerOf(project)]);

    const runs = await runTally(['runs'], { cwd: elsewhere, env });
    expect(runs.code).toBe(0);
    const line = runs.stdout.split('\n').find((row) => row.startsWith(result.runId));
    expect(line).toMatch(/fisherman\s+.*finished\s+success\s+8\s+2 suites with 3 tests each/);
    expect(line).toContain(project.slice(-20));

    const shown = await runTally(['runs', 'show', result.runId], { cwd: elsewhere, env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(result.runId);

    const out = join(elsewhere, 'demo-report.html');
    const report = await runTally(['report', result.runId, '--out', out], { cwd: elsewhere, env });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toBe(`Wrote ${out}\n`);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain(result.runId);
    expect(html).toContain('2 suites with 3 tests each');
    // Reading wrote nothing where it was run but the report itself.
    expect(existsSync(join(elsewhere, '.tally'))).toBe(false);
  });

  it('tally report: default file name in the working folder; a run no ledger has is RUN_NOT_FOUND; --ledger narrows to one', async () => {
    const state = tempDir('tally-state-');
    const [project, elsewhere] = [tempDir(), tempDir()];
    const env = { XDG_STATE_HOME: state };
    const demo = await runTally(['demo', '--json'], { cwd: project, env });
    const runId = (JSON.parse(demo.stdout) as { result: { runId: string } }).result.runId;

    const report = await runTally(['report', runId], { cwd: elsewhere, env });
    expect(report.code, report.stderr).toBe(0);
    expect(existsSync(join(elsewhere, `tally-report-${runId}.html`))).toBe(true);

    // A run no ledger has: the message names where it looked (the whole list, not only this folder's).
    const missing = await runTally(['report', 'run_missing'], { cwd: elsewhere, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `tally: No run "run_missing" in any of your 1 ledger (${ledgerOf(project)}). List runs with \`tally runs\`.\n`,
    );
    expect(existsSync(join(elsewhere, 'tally-report-run_missing.html'))).toBe(false);

    // --ledger names one ledger: a run that is only elsewhere is not found, as with runs show.
    const other = join(tempDir(), 'other.db');
    for (const args of [
      ['report', runId],
      ['runs', 'show', runId],
    ]) {
      const narrowed = await runTally([...args, '--ledger', other], { cwd: project, env });
      expect(narrowed.code, args.join(' ')).toBe(2);
      expect(narrowed.stderr + narrowed.stdout).toContain(`No run "${runId}" in the ledger at ${other}`);
    }
  });

  it('tally fish cleanup from another folder: finds the run, records the cleanup beside it, observed (--events), listed by tally runs', async () => {
    const { app } = await demoApp();
    const state = tempDir('tally-state-');
    const [project, elsewhere] = [tempDir(), tempDir()];
    const env = { XDG_STATE_HOME: state };
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
      { cwd: project, env },
    );
    expect(fish.code, fish.stderr).toBe(0);
    const fishRun = (JSON.parse(fish.stdout) as { runId: string }).runId;

    // From another folder: the run is found in the user's list, and its cleanup is recorded beside it.
    const cleanup = await runTally(['fish', 'cleanup', fishRun, '--json', '--events'], {
      cwd: elsewhere,
      env,
    });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    const cleaned = JSON.parse(cleanup.stdout) as { runId: string; cleanedRunId: string; status: string };
    expect(cleaned).toMatchObject({ cleanedRunId: fishRun, status: 'success' });
    expect(eventsOf(cleanup.stderr)[0]).toMatchObject({
      type: 'run-start',
      runId: cleaned.runId,
      agent: 'fisherman-cleanup',
    });
    expect(app.store.suites.size).toBe(0);

    const runs = await runTally(['runs', '--json'], { cwd: elsewhere, env });
    const listed = JSON.parse(runs.stdout) as { id: string; agent: string; ledger: string; status: string }[];
    expect(listed.map(({ id, agent }) => ({ id, agent }))).toEqual([
      { id: cleaned.runId, agent: 'fisherman-cleanup' },
      { id: fishRun, agent: 'fisherman' },
    ]);
    expect(listed.every((run) => run.ledger === ledgerOf(project) && run.status === 'success')).toBe(true);
    expect(existsSync(join(elsewhere, '.tally'))).toBe(false);
  });
});
