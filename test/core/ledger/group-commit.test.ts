// SQLite's group commit is synchronous at the end of the turn: what only this store promises.
// The burst (on the store soon after the last append, read at once by the run) runs on both
// stores in ledger-backends.test.ts.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { tempDir } from '../../helpers.js';

const open: Ledger[] = [];
afterEach(() => {
  for (const ledger of open.splice(0)) ledger.close();
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Lets the monotonic clock move past the commit window while timers are faked. */
const busyWait = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Nothing: setTimeout is faked here.
  }
};

/** Rows another connection (another process, `tally runs show`) sees now. */
function onDisk(path: string, runId: string): number {
  const reader = openSqlite(path, { readonly: true });
  try {
    return reader.prepare('SELECT COUNT(*) FROM entries WHERE run_id = ?').pluck().get(runId) as number;
  } finally {
    reader.close();
  }
}

describe('group commit', () => {
  it('one append after a quiet spell is on disk at the end of its turn', async () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = Ledger.open(path);
    open.push(ledger);
    const run = ledger.startRun({ agent: 't', task: 'x' });
    await sleep(20);
    run.append({ kind: 'nudge', data: { n: 1 } });
    await nextTurn();
    expect(onDisk(path, run.runId)).toBe(1);
  });

  it('flush() commits the queue now, whatever the window', async () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = Ledger.open(path);
    open.push(ledger);
    const run = ledger.startRun({ agent: 't', task: 'flush' });
    for (let index = 0; index < 10; index++) {
      run.append({ kind: 'nudge', data: { index } });
      await nextTurn();
    }
    run.append({ kind: 'nudge', data: { index: 10 } });
    ledger.flush();
    expect(onDisk(path, run.runId)).toBe(11);
  });
});

describe('a commit made before the group commit came due', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('cancels the scheduled flush, so an idle server is not woken for an empty queue', async () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = Ledger.open(path);
    open.push(ledger);
    const run = ledger.startRun({ agent: 't', task: 'mcp calls' });
    await ledger.commit();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
    // Both ways a flush is scheduled: within the window after the last commit (a timer), and
    // after a quiet spell (an immediate; the window is read from the monotonic clock).
    for (const spell of ['within the window', 'after a quiet spell']) {
      if (spell === 'after a quiet spell') busyWait(20);
      run.append({ kind: 'nudge', data: { spell } });
      expect(vi.getTimerCount()).toBe(1);
      expect(await ledger.commit()).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    }
    expect(onDisk(path, run.runId)).toBe(2);
    // An append after a cancelled flush is still written when its own flush comes due.
    run.append({ kind: 'nudge', data: { after: true } });
    expect(vi.getTimerCount()).toBe(1);
    vi.runAllTimers();
    expect(onDisk(path, run.runId)).toBe(3);
  });
});
