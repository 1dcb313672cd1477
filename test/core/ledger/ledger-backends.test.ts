// The ledger's semantics, one suite on both stores: SQLite (a temp file) and a real PostgreSQL
// server the suite starts (test/support/postgres-server.ts). Every case about what the ledger
// means — numbering and order per run, run ids, append-only, redaction before write, group
// commit, getRun/listRuns/hasRun, import/export (iterate), purge/vacuum/check, stats, several
// processes appending, leaving without close() (ledger-exit.test.ts) and memory over many runs
// (ledger-memory.test.ts, also parameterised) — runs on both.
//
// Kept to one store, because they are about that store, not about the ledger:
// - SQLite only: group commit at the end of the turn and flush() (its writes are synchronous,
//   group-commit.test.ts); the bytes of the database and WAL files (ledger.test.ts); WAL and
//   rollback-journal modes, read-only opening in place, SQLite schema migrations and the file
//   size after vacuum (ledger-maintenance.test.ts); query plans (query-plans.test.ts); file
//   locks held by another process (test/hostile/ledger-contention, mcp-ledger-busy); the
//   location of the file (ledger.test.ts).
// - PostgreSQL only: migrations under an advisory lock (below), a per-run advisory lock (the
//   4-process test runs 4×2,000 there), the server going away and coming back
//   (postgres-outage.test.ts), the URL's password kept out of messages (below).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chatTurnStats } from '../../../src/agents/coder/chat-turn-stats.js';
import { computeStats } from '../../../src/core/ledger/compute-stats.js';
import { openLedger } from '../../../src/core/ledger/ledger.js';
import { POSTGRES_SCHEMA_VERSION } from '../../../src/core/ledger/postgres-schema.js';
import type { StoredRun } from '../../../src/core/ledger/recording-ledger.js';
import { tempDir } from '../../helpers.js';
import { type LedgerBackend, useLedgerBackends } from '../../support/ledger-backends.js';

const run = promisify(execFile);
const worker = join(import.meta.dirname, 'append-worker.ts');
// Resolved here: the workers run in their own temp working dirs, where no node_modules is.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const backends = useLedgerBackends();

const JAN = '2026-01-10T10:00:00.000Z';
const MAR = '2026-03-10T10:00:00.000Z';

/** Runs with chosen times, as `ledger copy` brings them in (a run's own appends are stamped now). */
function storedRuns(): StoredRun[] {
  const entry = (seq: number, ts: string, kind: string, data = '{}') => ({
    seq,
    ts,
    kind,
    name: kind === 'guard' ? 'loop' : null,
    outcome: kind === 'end' ? 'finished' : kind === 'guard' ? 'nudge' : 'ok',
    data,
  });
  return [
    {
      id: 'run_old',
      agent: 'a',
      task: 'old',
      startedAt: JAN,
      meta: '{}',
      entries: [entry(1, JAN, 'tool_call'), entry(2, JAN, 'end', '{"status":"success"}')],
    },
    // Started before March, still writing after it: a purge keeps it whole.
    {
      id: 'run_straddles',
      agent: 'a',
      task: 'straddles',
      startedAt: JAN,
      meta: '{}',
      entries: [entry(1, JAN, 'guard'), entry(2, MAR, 'end', '{"status":"failed"}')],
    },
    {
      id: 'run_new',
      agent: 'b',
      task: 'new',
      startedAt: MAR,
      meta: '{}',
      entries: [entry(1, MAR, 'tool_call')],
    },
  ];
}

describe.each(backends)('ledger on $name', (backend) => {
  const test = backend.skip ? it.skip : it;

  test('numbers entries per run, reads them back in order, and lists runs with their ending', async () => {
    const ledger = await backend.open();
    try {
      const first = ledger.startRun({ agent: 'a', task: 'first' });
      const second = ledger.startRun({ agent: 'b', task: 'second' });
      first.append({ kind: 'tool_call', name: 'x', outcome: 'ok', data: { n: 1 } });
      second.append({ kind: 'tool_call', name: 'y', outcome: 'error', data: { n: 2 } });
      first.append({ kind: 'end', outcome: 'finished', data: { status: 'success', summary: 's' } });
      // The run's own bookkeeping, before any commit: no round trip needed.
      expect(first.entries().map((entry) => [entry.seq, entry.kind])).toEqual([
        [1, 'tool_call'],
        [2, 'end'],
      ]);
      expect(second.entries().map((entry) => entry.seq)).toEqual([1]);
      expect(await first.commit()).toBe(true);
      const listing = await ledger.listRuns();
      expect(listing.map((entry) => entry.id)).toEqual([second.runId, first.runId]);
      expect(listing[1]).toMatchObject({
        agent: 'a',
        endingReason: 'finished',
        status: 'success',
        toolCalls: 1,
      });
      expect(listing[0]).toMatchObject({ endingReason: null, status: null, toolCalls: 1 });
      expect(await ledger.listRuns({ agent: 'b' })).toHaveLength(1);
      expect(await ledger.listRuns({ limit: 1 })).toHaveLength(1);
      const record = await ledger.getRun(first.runId);
      expect(record.run).toMatchObject({ agent: 'a', task: 'first' });
      expect(record.entries.map((entry) => [entry.seq, entry.kind, entry.data])).toEqual([
        [1, 'tool_call', { n: 1 }],
        [2, 'end', { status: 'success', summary: 's' }],
      ]);
      expect(await ledger.hasRun(second.runId)).toBe(true);
      expect(await ledger.hasRun('run_missing')).toBe(false);
      await expect(async () => ledger.getRun('run_missing')).rejects.toThrow(
        /No run "run_missing".*tally runs/,
      );
    } finally {
      await ledger.close();
    }
  });

  test('run ids sort by creation time', async () => {
    const ledger = await backend.open();
    try {
      const ids = Array.from({ length: 5 }, () => ledger.startRun({ agent: 'a', task: 't' }).runId);
      expect([...ids].sort()).toEqual(ids);
      expect((await ledger.listRuns()).map((run) => run.id)).toEqual([...ids].reverse());
    } finally {
      await ledger.close();
    }
  });

  test('a burst of appends over many turns is in the store soon after the last, and the run reads all of it at once', async () => {
    const target = backend.target();
    const ledger = await backend.open(target);
    try {
      const run = ledger.startRun({ agent: 't', task: 'burst' });
      for (let index = 0; index < 200; index++) {
        run.append({ kind: 'nudge', data: { index } });
        await new Promise((resolve) => setImmediate(resolve));
      }
      // The run's own read never waits for a commit window.
      expect(run.entries().map((entry) => entry.data.index)).toEqual([...Array(200).keys()]);
      // Another connection (another process, `tally runs show`) sees them all, without a commit
      // call, once the group commit's window has passed (a loose hang guard, not a speed figure).
      const stored = async () =>
        Number(
          (await backend.raw(target, `SELECT COUNT(*) AS n FROM entries WHERE run_id = '${run.runId}'`))[0]
            ?.n,
        );
      const deadline = Date.now() + 5000;
      while ((await stored()) < 200 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await stored()).toBe(200);
    } finally {
      await ledger.close();
    }
  });

  test('is append-only: the store itself refuses updates and deletes', async () => {
    const target = backend.target();
    const ledger = await backend.open(target);
    ledger
      .startRun({ agent: 'a', task: 't' })
      .append({ kind: 'guard', name: 'loop', outcome: 'nudge', data: {} });
    await ledger.close();
    await expect(backend.raw(target, "UPDATE entries SET outcome = 'end'")).rejects.toThrow(/append-only/);
    await expect(backend.raw(target, 'DELETE FROM entries')).rejects.toThrow(/append-only/);
    await expect(backend.raw(target, "UPDATE runs SET agent = 'b'")).rejects.toThrow(/append-only/);
    expect(await backend.raw(target, 'SELECT outcome FROM entries')).toEqual([{ outcome: 'nudge' }]);
  });

  test('a secret is scrubbed before the store sees it', async () => {
    const target = backend.target();
    const ledger = await backend.open(target);
    const recorder = ledger.startRun({
      agent: 'http',
      task: 'create a suite, password KNOWN-hunter2-SECRET',
      knownSecrets: ['KNOWN-hunter2-SECRET'],
    });
    recorder.append({
      kind: 'tool_call',
      name: 'request',
      outcome: 'ok',
      data: {
        input: {
          headers: {
            Authorization: 'Bearer sk-live-HEADERSECRET-123456',
            'x-csrf-token': 'CSRFSECRET987654',
          },
          body: `pw KNOWN-hunter2-SECRET ${JSON.stringify({ title: 'Suite', password: 'BODYSECRET-hunter2' })}`,
        },
        note: 'the model echoed sk-live-HEADERSECRET-123456 back',
      },
    });
    await ledger.close();
    const stored = JSON.stringify([
      ...(await backend.raw(target, 'SELECT * FROM runs')),
      ...(await backend.raw(target, 'SELECT * FROM entries')),
    ]);
    expect(stored).toContain('create a suite');
    expect(stored).toContain('Suite');
    for (const secret of ['HEADERSECRET', 'CSRFSECRET987654', 'BODYSECRET-hunter2', 'KNOWN-hunter2-SECRET'])
      expect(stored).not.toContain(secret);
  });

  test('imports runs as stored (seq and times kept), idempotently; purges whole runs only; checks clean', async () => {
    const target = backend.target();
    const ledger = await backend.open(target);
    try {
      expect(await ledger.importRuns(storedRuns())).toEqual({ runs: 3, entries: 5 });
      expect(await ledger.importRuns(storedRuns())).toEqual({ runs: 0, entries: 0 });
      expect(await ledger.check()).toEqual([]);
      // Appending to an imported run continues its numbering.
      ledger.recorderFor('run_new').append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
      expect((await ledger.getRun('run_new')).entries.map((entry) => entry.seq)).toEqual([1, 2]);
      const exported = [];
      for await (const batch of ledger.exportRuns(2)) exported.push(...batch);
      expect(exported.map((stored) => [stored.id, stored.entries.length])).toEqual([
        ['run_new', 2],
        ['run_old', 2],
        ['run_straddles', 2],
      ]);
      const since = await ledger.entriesSince('2026-02-01T00:00:00.000Z', ['end']);
      expect(since.map((entry) => entry.runId)).toEqual(['run_straddles', 'run_new']);
      expect(await ledger.purge('2026-02-01', { dryRun: true })).toEqual({ runs: 1, entries: 2 });
      expect(await ledger.purge('2026-02-01T00:00:00.000Z')).toEqual({ runs: 1, entries: 2 });
      expect((await ledger.listRuns()).map((listed) => listed.id)).toEqual(['run_straddles', 'run_new']);
      expect(await ledger.purge('2026-02-01T00:00:00.000Z')).toEqual({ runs: 0, entries: 0 });
      await ledger.vacuum();
      expect(await ledger.check()).toEqual([]);
      expect((await ledger.getRun('run_straddles')).entries).toHaveLength(2);
    } finally {
      await ledger.close();
    }
    // The append-only trigger holds again once the purge is over: nothing but purge deletes.
    await expect(backend.raw(target, 'DELETE FROM entries')).rejects.toThrow(/append-only/);
  });

  test('purge never takes a run without its end entry (it may still be writing: an idle MCP session)', async () => {
    const target = backend.target();
    const ledger = await backend.open(target);
    try {
      const open = {
        id: 'run_open',
        agent: 'mcp',
        task: 'session',
        startedAt: JAN,
        meta: '{}',
        entries: [{ seq: 1, ts: JAN, kind: 'tool_call', name: null, outcome: 'ok', data: '{}' }],
      };
      expect(await ledger.importRuns([open])).toEqual({ runs: 1, entries: 1 });
      expect(await ledger.purge('2099-01-01T00:00:00.000Z', { dryRun: true })).toEqual({
        runs: 0,
        entries: 0,
      });
      expect(await ledger.purge('2099-01-01T00:00:00.000Z')).toEqual({ runs: 0, entries: 0 });
      // The session goes on: its next entry follows its first, and the ledger stays whole.
      ledger
        .recorderFor('run_open')
        .append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
      expect((await ledger.getRun('run_open')).entries.map((entry) => entry.seq)).toEqual([1, 2]);
      expect(await ledger.check()).toEqual([]);
      // Ended, it goes like any other.
      expect(await ledger.purge('2099-01-01T00:00:00.000Z')).toEqual({ runs: 1, entries: 2 });
    } finally {
      await ledger.close();
    }
  });

  test("check names each broken invariant: a run without its start, a gap in a run's order, two ends, an unknown kind, data that does not fit its kind, data that is not JSON, a missing trigger", async () => {
    const target = backend.target();
    const ledger = await backend.open(target);
    await ledger.importRuns([
      { id: 'run_ok', agent: 'a', task: 't', startedAt: JAN, meta: '{}', entries: [] },
    ]);
    await ledger.close();
    const row = (runId: string, seq: number, kind: string, data: string) =>
      `('${runId}', ${seq}, '${JAN}', '${kind}', NULL, NULL, '${data}')`;
    await backend.raw(
      target,
      `INSERT INTO entries (run_id, seq, ts, kind, name, outcome, data) VALUES ${[
        row('run_ok', 1, 'tool_call', '{}'),
        row('run_ghost', 1, 'tool_call', '{}'),
        row('run_ok', 3, 'end', '{}'), // seq 2 is missing
        row('run_ok', 4, 'end', '{}'),
        row('run_ok', 5, 'teleport', '{}'),
        row('run_ok', 6, 'claim', 'not json'),
        row('run_ok', 7, 'model_call', '{"inputTokens":"many"}'),
      ].join(', ')}`,
    );
    const trigger = backend.name === 'sqlite' ? 'runs_append_only_update' : 'runs_append_only';
    await backend.raw(target, `DROP TRIGGER ${trigger}${backend.name === 'postgres' ? ' ON runs' : ''}`);
    const reader = await openLedger(target, { readonly: true });
    try {
      expect(await reader.check()).toEqual([
        { check: 'schema', message: `the append-only trigger ${trigger} is missing` },
        { check: 'runs', message: '1 entries of run run_ghost, which has no start row' },
        { check: 'sequence', message: 'run run_ok: 6 entries numbered 1..7 (a gap or a duplicate)' },
        { check: 'end', message: 'run run_ok has 2 end entries' },
        { check: 'kind', message: '1 entries of unknown kind "teleport"' },
        {
          check: 'shape',
          message:
            'entry run_ok#7 (model_call) does not fit its kind: inputTokens: Invalid input: expected number, received string',
        },
        { check: 'json', message: 'entry run_ok#6: data is not JSON' },
      ]);
    } finally {
      await reader.close();
    }
  });

  test('stats count runs, endings, guard fires and rejections the same way', async () => {
    const ledger = await backend.open();
    try {
      await ledger.importRuns(storedRuns());
      const chat = ledger.startRun({
        agent: 'coder',
        task: 'turn',
        meta: { chatId: 'c1', orientation: { computed: true } },
      });
      chat.append({
        kind: 'tool_call',
        name: 'fs_tree',
        outcome: 'rejected',
        data: { error: { code: 'PATH_OUTSIDE_PROJECT' }, evidence: { cached: true } },
      });
      chat.append({ kind: 'guard', name: 'silence', outcome: 'nudge', data: {} });
      chat.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
      const stats = await computeStats(ledger, '2000-01-01T00:00:00.000Z', { contributors: [chatTurnStats] });
      expect(stats.runs).toBe(4);
      expect(stats.endingReasons).toEqual({ finished: 3, open: 1 });
      expect(stats.statusByAgent.a).toMatchObject({ runs: 2, success: 1, failed: 1 });
      expect(stats.guardFires).toEqual({ 'loop:nudge': 1, 'silence:nudge': 1 });
      expect(stats.recovery).toMatchObject({ nudgedRuns: 2, finishedAfterNudge: 2 });
      expect(Object.values(stats.rejectionsPerDay)).toEqual([{ PATH_OUTSIDE_PROJECT: 1 }]);
      expect(stats.chatTurns).toMatchObject({
        turns: 1,
        chats: 1,
        nudgeRate: 1,
        recoveries: { tool_failure: { turns: 1, rate: 1 } },
        treeCalls: { total: 2, cached: 1 },
      });
    } finally {
      await ledger.close();
    }
  });

  test('stats list agents, endings and guard fires in one order, whatever the store (`stats --json` alike)', async () => {
    const ledger = await backend.open();
    try {
      for (const agent of ['zeta', 'fisherman-read-back', 'alpha', 'fisherman']) {
        const run = ledger.startRun({ agent, task: agent });
        run.append({ kind: 'guard', name: `${agent}-guard`, outcome: 'nudge', data: {} });
        run.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
      }
      ledger.startRun({ agent: 'beta', task: 'open' });
      const stats = await computeStats(ledger, '2000-01-01T00:00:00.000Z');
      expect(Object.keys(stats.statusByAgent)).toEqual([
        'alpha',
        'beta',
        'fisherman',
        'fisherman-read-back',
        'zeta',
      ]);
      expect(Object.keys(stats.guardFires)).toEqual([
        'alpha-guard:nudge',
        'fisherman-guard:nudge',
        'fisherman-read-back-guard:nudge',
        'zeta-guard:nudge',
      ]);
    } finally {
      await ledger.close();
    }
  });

  test('processes in their own working dirs appending to one run lose none, duplicate none, keep each one’s order', async () => {
    const processes = backend.name === 'postgres' ? 4 : 2;
    const each = backend.name === 'postgres' ? 2000 : 1000;
    const target = backend.target();
    const ledger = await backend.open(target);
    const { runId } = ledger.startRun({ agent: 'parallel', task: 'append' });
    expect(await ledger.commit()).toBe(true);
    const labels = Array.from({ length: processes }, (_, index) => `machine${index}`);
    await Promise.all(
      labels.map((label) =>
        run(process.execPath, ['--import', TSX, worker, target, runId, String(each), label], {
          cwd: tempDir(),
        }),
      ),
    );
    const { entries } = await ledger.getRun(runId);
    await ledger.close();
    expect(entries).toHaveLength(processes * each);
    expect(entries.map((entry) => entry.seq)).toEqual(
      Array.from({ length: processes * each }, (_, index) => index + 1),
    );
    for (const label of labels) {
      const indexes = entries.filter((entry) => entry.data.label === label).map((entry) => entry.data.index);
      expect(indexes).toEqual(Array.from({ length: each }, (_, index) => index));
    }
  }, 120_000);
});

describe('PostgreSQL only: migrations', () => {
  const postgres = backends.find((backend) => backend.name === 'postgres') as LedgerBackend;
  const test = postgres.skip ? it.skip : it;

  test('processes opening a fresh database at once migrate it once (advisory lock); a newer schema is not written to', async () => {
    const target = postgres.target();
    const ledgers = await Promise.all(Array.from({ length: 4 }, () => postgres.open(target)));
    await Promise.all(ledgers.map((ledger) => ledger.close()));
    expect(await postgres.raw(target, 'SELECT version FROM tally_schema')).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
    await postgres.raw(target, 'UPDATE tally_schema SET version = 99');
    const refused = await postgres.open(target).then(
      () => undefined,
      (error: unknown) => error as { code?: string; message: string },
    );
    expect(refused?.code).toBe('LEDGER_UNAVAILABLE');
    expect(refused?.message).toContain(
      `has schema version 99, newer than this Tally's ${POSTGRES_SCHEMA_VERSION}: upgrade Tally`,
    );
    expect(refused?.message).not.toMatch(/Cannot reach|server is running/);
    const reader = await openLedger(target, { readonly: true });
    try {
      expect(await reader.listRuns()).toEqual([]);
      expect((await reader.check()).map((problem) => problem.message)).toContain(
        `schema version 99 is newer than this Tally's ${POSTGRES_SCHEMA_VERSION}: upgrade Tally`,
      );
    } finally {
      await reader.close();
    }
  });
});

describe('PostgreSQL only: a database from the previous version', () => {
  const postgres = backends.find((backend) => backend.name === 'postgres') as LedgerBackend;
  const test = postgres.skip ? it.skip : it;

  test('a schema-1 database is migrated by its next writer: its runs kept, appends numbered after them', async () => {
    const target = postgres.target();
    const ledger = await postgres.open(target);
    const run = ledger.startRun({ agent: 'a', task: 'before the upgrade' });
    run.append({ kind: 'tool_call', name: 'x', outcome: 'ok', data: {} });
    await ledger.close();
    // As Tally with schema 1 left it: no one-round-trip append function.
    await postgres.raw(target, 'DROP FUNCTION tally_append');
    await postgres.raw(target, 'UPDATE tally_schema SET version = 1');
    const upgraded = await postgres.open(target);
    try {
      upgraded
        .recorderFor(run.runId)
        .append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
      const { entries } = await upgraded.getRun(run.runId);
      expect(entries.map((entry) => [entry.seq, entry.kind])).toEqual([
        [1, 'tool_call'],
        [2, 'end'],
      ]);
    } finally {
      await upgraded.close();
    }
    expect(await postgres.raw(target, 'SELECT version FROM tally_schema')).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });
});

describe('PostgreSQL only: a schema-2 database (appends not yet idempotent)', () => {
  const postgres = backends.find((backend) => backend.name === 'postgres') as LedgerBackend;
  const test = postgres.skip ? it.skip : it;

  test('is read as it is and migrated by its next writer: its runs kept, appends numbered after them', async () => {
    const target = postgres.target();
    const ledger = await postgres.open(target);
    const run = ledger.startRun({ agent: 'a', task: 'before the upgrade' });
    run.append({ kind: 'tool_call', name: 'x', outcome: 'ok', data: {} });
    await ledger.close();
    // As Tally with schema 2 left it: no batch ids.
    await postgres.raw(target, 'DROP FUNCTION tally_append_once');
    await postgres.raw(target, 'DROP TABLE tally_batches');
    await postgres.raw(target, 'UPDATE tally_schema SET version = 2');
    const upgraded = await postgres.open(target);
    try {
      upgraded
        .recorderFor(run.runId)
        .append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
      const { entries } = await upgraded.getRun(run.runId);
      expect(entries.map((entry) => [entry.seq, entry.kind])).toEqual([
        [1, 'tool_call'],
        [2, 'end'],
      ]);
    } finally {
      await upgraded.close();
    }
    expect(await postgres.raw(target, 'SELECT version FROM tally_schema')).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });
});

describe('PostgreSQL only: read-only opens change nothing', () => {
  const postgres = backends.find((backend) => backend.name === 'postgres') as LedgerBackend;
  const test = postgres.skip ? it.skip : it;
  const tables = async (target: string) =>
    (
      await postgres.raw(target, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    ).map((row) => row.tablename);

  test('an empty database reads as no runs, and no table is made in it', async () => {
    const target = postgres.target();
    const reader = await openLedger(target, { readonly: true });
    try {
      expect(await reader.listRuns()).toEqual([]);
      expect(await reader.hasRun('run_none')).toBe(false);
      expect(await reader.check()).toEqual([]);
    } finally {
      await reader.close();
    }
    expect(await tables(target)).toEqual([]);
  });

  test('a SELECT-only user reads; writing says it is a permission problem, not an outage', async () => {
    const target = postgres.target();
    const ledger = await postgres.open(target);
    ledger.startRun({ agent: 'a', task: 'recorded by the owner' });
    await ledger.close();
    const database = new URL(target).pathname.slice(1);
    await postgres.raw(target, `DROP ROLE IF EXISTS reader_${database}`);
    await postgres.raw(target, `CREATE ROLE reader_${database} LOGIN`);
    await postgres.raw(target, `GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader_${database}`);
    await postgres.raw(target, `REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    const asReader = target.replace('postgres@', `reader_${database}@`);
    const reader = await openLedger(asReader, { readonly: true });
    try {
      expect((await reader.listRuns()).map((run) => run.task)).toEqual(['recorded by the owner']);
    } finally {
      await reader.close();
    }
    await postgres.raw(target, 'UPDATE tally_schema SET version = 1');
    const refused = await openLedger(asReader).then(
      () => undefined,
      (error: unknown) => error as { code?: string; message: string },
    );
    expect(refused?.code).toBe('LEDGER_UNAVAILABLE');
    expect(refused?.message).toMatch(/permission problem/);
    expect(refused?.message).not.toMatch(/server is running/);
  });

  test('an older schema (version 1) is read as it is, not migrated', async () => {
    const target = postgres.target();
    const ledger = await postgres.open(target);
    const run = ledger.startRun({ agent: 'a', task: 'schema 1' });
    run.append({ kind: 'tool_call', name: 'x', outcome: 'ok', data: {} });
    await ledger.close();
    await postgres.raw(target, 'DROP FUNCTION tally_append_once');
    await postgres.raw(target, 'DROP TABLE tally_batches');
    await postgres.raw(target, 'DROP FUNCTION tally_append');
    await postgres.raw(target, 'UPDATE tally_schema SET version = 1');
    const reader = await openLedger(target, { readonly: true });
    try {
      expect((await reader.getRun(run.runId)).entries.map((entry) => entry.name)).toEqual(['x']);
    } finally {
      await reader.close();
    }
    expect(await postgres.raw(target, 'SELECT version FROM tally_schema')).toEqual([{ version: 1 }]);
    expect(await tables(target)).toEqual(['entries', 'runs', 'tally_schema']);
  });
});

describe('choosing the PostgreSQL ledger', () => {
  it('an unreachable server is LEDGER_UNAVAILABLE naming the URL without its password', async () => {
    const error = await openLedger('postgres://tally:s3cret-PW@127.0.0.1:1/ledger', {
      busyLimitMs: 2000,
    }).then(
      () => undefined,
      (caught: unknown) => caught as { code?: string; message: string },
    );
    expect(error?.code).toBe('LEDGER_UNAVAILABLE');
    expect(error?.message).toContain('postgres://tally:***@127.0.0.1:1/ledger');
    expect(error?.message).toMatch(/Cannot reach the PostgreSQL ledger/);
    expect(error?.message).not.toContain('s3cret-PW');
  });
});
