import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

const fishArgs = (baseUrl: string) => [
  'fish',
  '1 suite',
  '--captures',
  BUNDLED_HAR,
  '--base-url',
  baseUrl,
  '--scope',
  '/projects/alpha-shop',
  '--login',
  'demo',
  '--json',
];

/** Every file under `dir` with its size and mtime: what a read-only command must leave alone. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path);
        out[path] = `${stat.size}:${stat.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

describe('tally runs across every ledger of this user', () => {
  it('lists runs recorded in two projects, with a project column; runs show finds either', async () => {
    const { app } = await demoApp();
    const state = tempDir('tally-state-');
    const [alpha, beta, elsewhere] = [tempDir(), tempDir(), tempDir()];
    const env = { XDG_STATE_HOME: state };
    const first = await runTally(fishArgs(app.url), { cwd: alpha, env });
    const second = await runTally(fishArgs(app.url), { cwd: beta, env });
    expect([first.code, second.code]).toEqual([0, 0]);
    const alphaRun = (JSON.parse(first.stdout) as { runId: string }).runId;
    const betaRun = (JSON.parse(second.stdout) as { runId: string }).runId;
    // The list names ledgers, not runs: one line per ledger.
    const registry = readFileSync(join(state, 'tally', 'ledgers.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(registry.map((line) => JSON.parse(line).path).sort()).toEqual(
      [join(alpha, '.tally', 'ledger.db'), join(beta, '.tally', 'ledger.db')].sort(),
    );

    const table = await runTally(['runs'], { cwd: elsewhere, env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^RUN\s+AGENT\s+PROJECT\s+STARTED/);
    expect(table.stdout).toContain(alphaRun);
    expect(table.stdout).toContain(betaRun);
    // Newest first.
    expect(table.stdout.indexOf(betaRun)).toBeLessThan(table.stdout.indexOf(alphaRun));

    const json = await runTally(['runs', '--json'], { cwd: elsewhere, env });
    const runs = JSON.parse(json.stdout) as { id: string; project: string; ledger: string }[];
    expect(runs.find((run) => run.id === alphaRun)).toMatchObject({
      project: alpha,
      ledger: join(alpha, '.tally', 'ledger.db'),
    });

    const shown = await runTally(['runs', 'show', betaRun, '--json'], { cwd: alpha, env });
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ run: { id: betaRun, agent: 'fisherman' } });
  });

  it('--ledger names one ledger: only its runs', async () => {
    const { app } = await demoApp();
    const state = tempDir('tally-state-');
    const [alpha, beta] = [tempDir(), tempDir()];
    const env = { XDG_STATE_HOME: state };
    await runTally(fishArgs(app.url), { cwd: alpha, env });
    const second = await runTally(fishArgs(app.url), { cwd: beta, env });
    const betaRun = (JSON.parse(second.stdout) as { runId: string }).runId;
    const only = await runTally(['runs', '--json', '--ledger', join(alpha, '.tally', 'ledger.db')], {
      cwd: beta,
      env,
    });
    const runs = JSON.parse(only.stdout) as { id: string }[];
    expect(runs).toHaveLength(1);
    expect(runs.map((run) => run.id)).not.toContain(betaRun);
  });

  it('runs, runs show, stats and report write nothing: same files, sizes and mtimes in the project and the state folder', async () => {
    const { app } = await demoApp();
    const state = tempDir('tally-state-');
    const project = tempDir();
    const out = tempDir();
    const env = { XDG_STATE_HOME: state };
    const fish = await runTally(fishArgs(app.url), { cwd: project, env });
    const runId = (JSON.parse(fish.stdout) as { runId: string }).runId;
    const before = { project: snapshot(project), state: snapshot(state) };
    expect(Object.keys(before.project)).toContain(join(project, '.tally', 'ledger.db'));

    for (const args of [
      ['runs'],
      ['runs', '--json'],
      ['runs', 'show', runId],
      ['runs', 'show', runId, '--json'],
      ['stats'],
      ['stats', '--json'],
      ['report', runId, '--out', join(out, 'report.html')],
    ]) {
      const result = await runTally(args, { cwd: project, env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    expect(snapshot(project)).toEqual(before.project);
    expect(snapshot(state)).toEqual(before.state);
  });

  it('reading where no ledger exists creates none', async () => {
    const cwd = tempDir();
    const state = tempDir('tally-state-');
    const runs = await runTally(['runs'], { cwd, env: { XDG_STATE_HOME: state } });
    expect(runs.code).toBe(0);
    expect(runs.stdout).toContain('No runs in any ledger of yours yet');
    expect(readdirSync(cwd)).toEqual([]);
    expect(readdirSync(state)).toEqual([]);
  });
});
