import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { runTally, tempDir } from '../helpers.js';

const tally = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => runTally(args, { cwd, env });

beforeAll(() => {
  if (!existsSync(join(import.meta.dirname, '..', '..', 'dist', 'surfaces', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it for you).');
  }
});

describe('tally CLI', () => {
  it('--help lists the commands and exits 0; an unknown command exits 2', async () => {
    const cwd = tempDir();
    const help = await tally(['--help'], cwd);
    expect(help.code).toBe(0);
    for (const command of ['runs', 'stats', 'demo', 'fish', 'demo-app'])
      expect(help.stdout).toContain(command);
    const unknown = await tally(['frobnicate'], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });

  it('reading runs never creates a ledger', async () => {
    const cwd = tempDir();
    const runs = await tally(['runs'], cwd);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toContain('No runs in');
    expect(existsSync(join(cwd, '.tally'))).toBe(false);
  });

  it('demo prepares 2 suites with 3 tests each and confirms all 8 through the API; runs and stats read it back', async () => {
    const cwd = tempDir();
    const demo = await tally(['demo'], cwd);
    expect(demo.stderr).toBe('');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('All 8 items verified in the ledger and confirmed through the API.');
    expect(demo.stdout.match(/✓ GET 200/g)).toHaveLength(8);
    expect(demo.stdout).toMatch(/suite\s+\d+\s+Suite 1 · \w+\s+POST \/api\/alpha-shop\/suites → 201/);

    const listing = await tally(['runs', '--json'], cwd);
    const runs = JSON.parse(listing.stdout) as {
      id: string;
      agent: string;
      endingReason: string;
      toolCalls: number;
    }[];
    // The read-back is a recorded run of its own (newest first): a lookup per verified item.
    expect(runs).toEqual([
      expect.objectContaining({ agent: 'fisherman-read-back', endingReason: 'finished', toolCalls: 8 }),
      expect.objectContaining({ agent: 'fisherman', endingReason: 'finished', toolCalls: 8 }),
    ]);
    const fishRunId = runs[1]?.id as string;
    const readBackId = runs[0]?.id as string;
    expect(demo.stdout).toContain(`Read back in run ${readBackId}: tally runs show ${readBackId}`);
    const readBack = JSON.parse((await tally(['runs', 'show', readBackId, '--json'], cwd)).stdout) as {
      run: { meta: Record<string, unknown> };
      entries: {
        kind: string;
        outcome: string;
        data: { input?: { path?: string }; evidence?: { via?: string } };
      }[];
    };
    expect(readBack.run.meta).toMatchObject({ readsBack: fishRunId });
    const reads = readBack.entries.filter((entry) => entry.kind === 'tool_call');
    expect(reads.map((entry) => entry.data.evidence?.via)).toEqual(
      reads.map((entry) => `GET ${entry.data.input?.path} → 200`),
    );
    expect(new Set(reads.map((entry) => entry.data.input?.path)).size).toBe(8);

    const shown = await tally(['runs', 'show', fishRunId], cwd);
    expect(shown.code).toBe(0);
    expect(shown.stdout.match(/claim {2}verified/g)).toHaveLength(8);
    expect(shown.stdout).not.toMatch(/demo_sid=[0-9a-f]|demo-password/);

    const exported = JSON.parse((await tally(['runs', 'show', fishRunId, '--json'], cwd)).stdout);
    expect(exported.run.meta).toMatchObject({
      tier: 'deterministic',
      scope: '/projects/alpha-shop',
      login: 'demo',
    });

    const stats = JSON.parse((await tally(['stats', '--json'], cwd)).stdout);
    expect(stats.runs).toBe(2);
    expect(stats.endingReasons).toEqual({ finished: 2 });
    expect(stats.statusByAgent.fisherman.successRate).toBe(1);
    const text = await tally(['stats'], cwd);
    expect(text.stdout).toMatch(/Ending reasons:\n\s+finished\s+2/);
  });

  it('a secret in a tool input header and body is absent from `tally runs show` output', async () => {
    const cwd = tempDir();
    const ledgerPath = join(cwd, 'custom.db');
    const ledger = Ledger.open(ledgerPath);
    const recorder = ledger.startRun({ agent: 'http', task: 'create a suite' });
    recorder.append({
      kind: 'tool_call',
      name: 'request',
      outcome: 'ok',
      data: {
        tool: 'request',
        input: { headers: { Cookie: 'sid=COOKIESECRET42' }, body: { title: 'S', api_key: 'BODYKEYSECRET' } },
      },
    });
    ledger.close();
    for (const args of [
      ['--ledger', ledgerPath, 'runs', 'show', recorder.runId],
      ['runs', 'show', recorder.runId, '--json'],
    ]) {
      const out = await tally(args, cwd, { TALLY_LEDGER: ledgerPath });
      expect(out.code).toBe(0);
      expect(out.stdout).toContain('[redacted]');
      expect(out.stdout).not.toContain('COOKIESECRET42');
      expect(out.stdout).not.toContain('BODYKEYSECRET');
    }
  });

  it('bad input gets a clear message and exit 2', async () => {
    const cwd = tempDir();
    await tally(['demo'], cwd);
    const missing = await tally(['runs', 'show', 'run_nope'], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No run "run_nope"');
    const since = await tally(['stats', '--since', 'last tuesday'], cwd);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since "last tuesday"');
    const limit = await tally(['runs', '--limit', 'lots'], cwd);
    expect(limit.code).toBe(2);
  });
});
