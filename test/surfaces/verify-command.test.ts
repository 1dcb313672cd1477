import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/core/sqlite/open-sqlite.js';
import { type DemoApp, startDemoApp } from '../../src/demo-app/server.js';
import { EXIT } from '../../src/surfaces/cli/exit-codes.js';
import { type AimockServer, startAimock } from '../../src/testing/aimock.js';
import { sampleProject } from '../agents/coder/coder-fixtures.js';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR } from '../packs/http/demo-fixtures.js';

interface VerifyJson {
  runId: string;
  agent: string;
  matches: boolean;
  recorded?: { status: string; verified: number; dropped: number };
  recomputed?: { status: string; verified: number; dropped: number };
  mismatches: { seq?: number; kind: string; tool?: string; what: string }[];
  notRechecked: string[];
}

/** A copy of a ledger edited by hand, as someone covering their tracks would: the append-only triggers dropped first. */
function editedCopy(ledger: string, sql: string, params: unknown[] = []): string {
  const copy = join(tempDir(), 'edited.db');
  copyFileSync(ledger, copy);
  const database = openSqlite(copy);
  try {
    database.exec('DROP TRIGGER entries_append_only_update; DROP TRIGGER entries_append_only_delete;');
    database.prepare(sql).run(...(params as never[]));
  } finally {
    database.close();
  }
  return copy;
}

/** Deletes a resource through the demo app's API as a user's own script would: log in, read the CSRF token, DELETE. */
async function deleteThroughApi(baseUrl: string, path: string): Promise<number> {
  const login = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo@tally.test', password: 'demo-password' }),
    redirect: 'manual',
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await (await fetch(`${baseUrl}/projects`, { headers: { cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1] ?? '';
  const deleted = await fetch(`${baseUrl}${path}`, {
    method: 'DELETE',
    headers: { cookie, 'x-csrf-token': csrf },
  });
  return deleted.status;
}

async function verify(ledger: string, runId: string, ...extra: string[]) {
  const result = await runTally(['--ledger', ledger, 'verify', runId, '--json', ...extra]);
  return { code: result.code, stderr: result.stderr, json: JSON.parse(result.stdout || '{}') as VerifyJson };
}

describe('tally verify: a past run recomputed from its ledger alone', () => {
  let ledger = '';
  let runId = '';
  let claimSeq = 0;
  let effectSeq = 0;

  let app: DemoApp;
  let project = '';

  beforeAll(async () => {
    // Kept for the whole describe (tempDir and demoApp are per test): the edits copy this one run.
    app = await startDemoApp();
    project = mkdtempSync(join(tmpdir(), 'tally-verify-'));
    ledger = join(project, '.tally', 'ledger.db');
    const fish = await runTally(
      [
        'fish',
        '2 suites',
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
      { cwd: project },
    );
    expect(fish.code, fish.stderr).toBe(0);
    runId = (JSON.parse(fish.stdout) as { runId: string }).runId;
    const database = openSqlite(ledger, { readonly: true });
    try {
      const claim = database
        .prepare("SELECT seq, data FROM entries WHERE run_id = ? AND kind = 'claim' ORDER BY seq LIMIT 1")
        .get(runId) as { seq: number; data: string };
      claimSeq = claim.seq;
      effectSeq = (JSON.parse(claim.data) as { evidenceSeq: number }).evidenceSeq;
    } finally {
      database.close();
    }
  });

  afterAll(async () => {
    await app?.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('a Fisherman run as recorded: reproduced, exit 0; the text names both verdicts', async () => {
    const { code, json } = await verify(ledger, runId);
    expect(code).toBe(EXIT.ok);
    expect(json).toMatchObject({ runId, agent: 'fisherman', matches: true, mismatches: [] });
    expect(json.recorded).toEqual(json.recomputed);
    expect(json.recomputed).toMatchObject({ status: 'success', verified: 2, dropped: 0 });
    const text = await runTally(['--ledger', ledger, 'verify', runId]);
    expect(text.stdout).toContain('recorded:   success · finished · 2 verified, 0 dropped');
    expect(text.stdout).toContain('recomputed: success · finished · 2 verified, 0 dropped');
    expect(text.stdout).toContain('✓ The ledger reproduces the recorded verdict.');
  });

  it('a claim flipped by hand (verified → dropped) is named by its entry and the tool of its evidence', async () => {
    const edited = editedCopy(ledger, "UPDATE entries SET outcome = 'dropped' WHERE run_id = ? AND seq = ?", [
      runId,
      claimSeq,
    ]);
    const { code, json } = await verify(edited, runId);
    expect(code).toBe(EXIT.notReproduced);
    expect(json.matches).toBe(false);
    expect(json.mismatches).toContainEqual(
      expect.objectContaining({ seq: claimSeq, kind: 'claim', tool: 'request' }),
    );
    expect(json.mismatches.find((one) => one.seq === claimSeq)?.what).toMatch(
      /is recorded dropped, but the ledger makes it verified \(POST \/api\/alpha-shop\/suites → 201\)/,
    );
  });

  it('an effect entry deleted: the gap, the claim it backed and the verdict it changes are each named', async () => {
    const edited = editedCopy(ledger, 'DELETE FROM entries WHERE run_id = ? AND seq = ?', [runId, effectSeq]);
    const { code, json } = await verify(edited, runId);
    expect(code).toBe(EXIT.notReproduced);
    expect(json.recomputed).toMatchObject({ status: 'partial', verified: 1, dropped: 1 });
    const whats = json.mismatches.map((one) => `#${one.seq} ${one.kind}: ${one.what}`);
    expect(whats).toContain(
      `#${effectSeq} missing: entry #${effectSeq} is not in the ledger (removed after the run)`,
    );
    expect(
      whats.some(
        (what) =>
          what.startsWith(`#${claimSeq} claim:`) &&
          /recorded verified, but the ledger makes it dropped: this run has no effect on/.test(what),
      ),
    ).toBe(true);
    expect(
      whats.some((what) =>
        / end: the end entry records status success, the ledger gives partial$/.test(what),
      ),
    ).toBe(true);
  });

  it('a status edited in the end entry: the one mismatch is the end entry', async () => {
    const edited = editedCopy(
      ledger,
      "UPDATE entries SET data = json_set(data, '$.status', 'partial') WHERE run_id = ? AND kind = 'end'",
      [runId],
    );
    const { code, json } = await verify(edited, runId);
    expect(code).toBe(EXIT.notReproduced);
    expect(json.mismatches).toHaveLength(1);
    expect(json.mismatches[0]).toMatchObject({
      kind: 'end',
      what: 'the end entry records status partial, the ledger gives success',
    });
  });

  it('--live: unchanged resources pass; a suite deleted through the API afterwards is reported as drift, exit 4', async () => {
    const before = await verify(ledger, runId, '--live');
    expect(before.code, before.stderr).toBe(EXIT.ok);
    const live = (before.json as unknown as { live: { key: string; state: string; what: string }[] }).live;
    expect(live).toHaveLength(2);
    expect(live.every((check) => check.state === 'unchanged')).toBe(true);
    const gone = live[0]?.key as string;
    expect(await deleteThroughApi(app.url, gone)).toBeLessThan(300);
    const after = await verify(ledger, runId, '--live');
    expect(after.code).toBe(EXIT.notReproduced);
    // The ledger still reproduces its verdict: it is today's state that moved.
    expect(after.json.matches).toBe(true);
    const checks = (
      after.json as unknown as { live: { key: string; state: string; what: string }[]; drifted: boolean }
    ).live;
    expect(checks.find((check) => check.key === gone)).toMatchObject({
      state: 'drifted',
      what: `GET ${gone} → 404: gone`,
    });
    expect(checks.filter((check) => check.state === 'unchanged')).toHaveLength(1);
    const text = await runTally(['--ledger', ledger, 'verify', runId, '--live']);
    expect(text.stdout).toContain(`✗ created http ${gone} (suite): GET ${gone} → 404: gone`);
  });

  it("--live on a cleanup run: opened through the cleaned run's session, its deletions still hold", async () => {
    const env = { XDG_STATE_HOME: tempDir('tally-state-') };
    const cleanup = await runTally(['--ledger', ledger, 'fish', 'cleanup', runId, '--json'], { env });
    const cleanupRun = (JSON.parse(cleanup.stdout) as { runId: string }).runId;
    const { code, json } = await verify(ledger, cleanupRun, '--live');
    expect(code, JSON.stringify(json)).toBe(EXIT.ok);
    const live = (json as unknown as { live: { effect: string; state: string; what: string }[] }).live;
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((check) => check.effect === 'deleted' && check.state === 'unchanged')).toBe(true);
    expect(live[0]?.what).toMatch(/→ 404: still gone$/);
  });

  it('an unknown run is RUN_NOT_FOUND (exit 2); a ledger that is not a database is exit 3', async () => {
    const unknown = await runTally(['--ledger', ledger, 'verify', 'run_nope']);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr + unknown.stdout).toContain('No run "run_nope" in the ledger at');
    const junk = join(tempDir(), 'junk.db');
    writeFileSync(junk, 'not a database at all, just text');
    const unreadable = await runTally(['--ledger', junk, 'verify', runId]);
    expect(unreadable.code).toBe(EXIT.unavailable);
  });
});

const call = (id: string, name: string, input: unknown) => ({ id, name, arguments: JSON.stringify(input) });

describe('tally verify: Coder and Scout runs', () => {
  let server: AimockServer<LLMock>;
  beforeAll(async () => {
    server = await startAimock<LLMock>((mock) => {
      mock.onToolResult('call_verify_write', { content: 'I created src/verified.ts.' });
      mock.onMessage('add src/verified.ts', {
        toolCalls: [
          call('call_verify_write', 'fs_write', { path: 'src/verified.ts', content: 'export {};\n' }),
        ],
      });
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a Coder turn (aimock) is reproduced; its review is named as taken as recorded when it ran', async () => {
    const root = sampleProject();
    const ledger = join(tempDir(), 'coder.db');
    const turn = await runTally(['--ledger', ledger, 'code', 'add src/verified.ts', '--root', root], {
      env: { ...server.env, TALLY_MODEL: 'openai:gpt-4.1-mini' },
    });
    expect(turn.stderr).toBe('');
    const runs = await runTally(['--ledger', ledger, 'runs', '--json']);
    const [run] = JSON.parse(runs.stdout) as { id: string; agent: string; status: string }[];
    expect(run?.agent).toBe('coder');
    const { code, json } = await verify(ledger, run?.id as string);
    expect(json.mismatches).toEqual([]);
    expect(code).toBe(EXIT.ok);
    expect(json.recomputed?.status).toBe(run?.status);
    expect(json.notRechecked).toContain(
      "the agent's review is taken as recorded (it may only lower the status)",
    );
    // --live: the file the turn wrote, by its recorded sha256 (the run's root from its meta).
    expect((await verify(ledger, run?.id as string, '--live')).code).toBe(EXIT.ok);
    writeFileSync(join(root, 'src', 'verified.ts'), 'export const changed = 1;\n');
    const drifted = await verify(ledger, run?.id as string, '--live');
    expect(drifted.code).toBe(EXIT.notReproduced);
    expect(
      (drifted.json as unknown as { live: { key: string; state: string; what: string }[] }).live,
    ).toContainEqual(
      expect.objectContaining({
        key: 'src/verified.ts',
        state: 'drifted',
        what: expect.stringMatching(/^sha256 now [0-9a-f]{12}, the run left [0-9a-f]{12}$/),
      }),
    );
  });

  it('a Scout run (deterministic) is reproduced', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'plans'));
    writeFileSync(
      join(root, 'plans', 'release.md'),
      '---\nid: PLAN-release\nkind: plan\ndate: 2026-01-01\nkeywords: [release, version]\nlinks: {}\nstatus: active\n---\nTo release a version, run `npm version patch` and push the tag.\n',
    );
    const ledger = join(tempDir(), 'scout.db');
    const scout = await runTally(['--ledger', ledger, 'scout', 'release a version', '--root', root], {
      cwd: root,
    });
    expect(scout.code, scout.stderr).toBeLessThan(2);
    const runs = await runTally(['--ledger', ledger, 'runs', '--json']);
    const [run] = JSON.parse(runs.stdout) as { id: string; agent: string; status: string }[];
    expect(run?.agent).toBe('scout');
    const { code, json } = await verify(ledger, run?.id as string);
    expect(json.mismatches).toEqual([]);
    expect(code).toBe(EXIT.ok);
    expect(json.recomputed?.status).toBe(run?.status);
    // --live: the records its answer rests on, unchanged; then one edited.
    expect((await verify(ledger, run?.id as string, '--live', '--root', root)).code).toBe(EXIT.ok);
    writeFileSync(join(root, 'plans', 'release.md'), 'edited since\n');
    const drifted = await verify(ledger, run?.id as string, '--live', '--root', root);
    expect(drifted.code).toBe(EXIT.notReproduced);
    expect((drifted.json as unknown as { live: { key: string; state: string }[] }).live).toContainEqual(
      expect.objectContaining({ key: 'plans/release.md', state: 'drifted' }),
    );
  });
});
