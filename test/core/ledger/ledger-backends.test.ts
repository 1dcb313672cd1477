import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chatTurnStats } from '../../../src/agents/coder/chat-turn-stats.js';
import { computeStats } from '../../../src/core/ledger/compute-stats.js';
import { openLedger } from '../../../src/core/ledger/ledger.js';
import type { StoredRun } from '../../../src/core/ledger/recording-ledger.js';
import { tempDir } from '../../helpers.js';
import { useLedgerBackends } from '../../support/ledger-backends.js';

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
      await expect(async () => ledger.getRun('run_missing')).rejects.toThrow(/No run "run_missing"/);
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
          headers: { Authorization: 'Bearer sk-live-HEADERSECRET-123456' },
          body: 'pw KNOWN-hunter2-SECRET',
        },
      },
    });
    await ledger.close();
    const stored = JSON.stringify([
      ...(await backend.raw(target, 'SELECT * FROM runs')),
      ...(await backend.raw(target, 'SELECT * FROM entries')),
    ]);
    expect(stored).toContain('create a suite');
    for (const secret of ['HEADERSECRET', 'KNOWN-hunter2-SECRET']) expect(stored).not.toContain(secret);
  });

  test('imports runs as stored (seq and times kept), idempotently; purges whole runs only; checks clean', async () => {
    const ledger = await backend.open();
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
      await ledger.vacuum();
      expect(await ledger.check()).toEqual([]);
    } finally {
      await ledger.close();
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
