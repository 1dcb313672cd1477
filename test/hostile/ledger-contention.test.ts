import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerError } from '../../src/core/errors.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { tempDir } from '../helpers.js';
import { holdLock } from './hold-lock.js';

/** The longest gap between ticks of a 10 ms interval while `work` runs: how long the event loop froze. */
function watchEventLoop(): { stop: () => number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  return {
    stop: () => {
      clearInterval(timer);
      return worst;
    },
  };
}

const entry = (index: number) => ({
  kind: 'tool_call' as const,
  name: 'put',
  outcome: 'ok',
  data: { index },
});

describe('ledger under another process holding its write lock', () => {
  it('keeps the event loop responsive, never crashes, and writes every acknowledged entry once the lock frees', async () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = Ledger.open(path);
    const recorder = ledger.startRun({ agent: 'hostile', task: 'append under contention' });
    recorder.append(entry(0));
    ledger.flush();
    const { released } = await holdLock(path, 3_000);
    const loop = watchEventLoop();
    // Appends across many event-loop turns while the lock is held, like a server acknowledging calls.
    for (let index = 1; index <= 40; index++) {
      recorder.append(entry(index));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A read during the outage still sees the run's queued entries (the finish verifier reads).
    expect(recorder.entries().map((item) => item.data.index)).toEqual(
      Array.from({ length: 41 }, (_, index) => index),
    );
    await released;
    const worst = loop.stop();
    await new Promise((resolve) => setTimeout(resolve, 600)); // the backoff retry writes the backlog
    expect(worst).toBeLessThan(200);
    ledger.close();
    const check = Ledger.open(path, { readonly: true });
    const stored = check.entries(recorder.runId);
    check.close();
    expect(stored.map((item) => item.data.index)).toEqual(Array.from({ length: 41 }, (_, index) => index));
    expect(stored.map((item) => item.seq)).toEqual(Array.from({ length: 41 }, (_, index) => index + 1));
  }, 20_000);

  it('past the busy limit: a LEDGER_BUSY error, a fail-open line and a fail_open entry; nothing lost', async () => {
    const dir = tempDir();
    const path = join(dir, 'ledger.db');
    const reported: LedgerError[] = [];
    const ledger = Ledger.open(path, { busyLimitMs: 500, onBusy: (error) => reported.push(error) });
    const recorder = ledger.startRun({ agent: 'hostile', task: 'append past the limit' });
    ledger.flush();
    const { released } = await holdLock(path, 2_000);
    for (let index = 0; index < 10; index++) {
      recorder.append(entry(index));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await released;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(reported.map((error) => error.code)).toEqual(['LEDGER_BUSY']);
    expect(reported[0]?.message).toContain(path);
    expect(reported[0]?.message).toMatch(/pass --ledger PATH/);
    const log = readFileSync(join(dir, 'fail-open.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(log.map((line) => [line.component, line.why])).toContainEqual(['ledger', 'ledger-unavailable']);
    ledger.close();
    const check = Ledger.open(path, { readonly: true });
    const stored = check.entries(recorder.runId);
    check.close();
    expect(stored.filter((item) => item.kind === 'tool_call').map((item) => item.data.index)).toEqual(
      Array.from({ length: 10 }, (_, index) => index),
    );
    expect(stored.filter((item) => item.kind === 'fail_open').map((item) => item.outcome)).toEqual([
      'ledger-unavailable',
    ]);
  }, 20_000);

  it('close() while the lock stays held past the limit is a clear LEDGER_BUSY error, not a SqliteError', async () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = Ledger.open(path, { busyLimitMs: 300 });
    const recorder = ledger.startRun({ agent: 'hostile', task: 'close while locked' });
    ledger.flush();
    const { released } = await holdLock(path, 1_500);
    recorder.append(entry(1));
    let thrown: unknown;
    try {
      ledger.close();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'LEDGER_BUSY' });
    await released;
  }, 20_000);
});
