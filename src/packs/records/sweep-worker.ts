// Worker-thread entry of the records sweep (watched-records.ts): answers each sweep request
// with the paths that changed since the last sweep, so the thread that answers queries only
// applies them. It keeps what it saw (the baseline) between sweeps, and loads it again from the
// index's snapshot (read-only) after every full check the main thread ran.
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { openSqlite } from '../../core/sqlite/open-sqlite.js';
import type { PackedSnapshot } from './index-snapshot.js';
import { type SweepBaseline, sweepBaseline, sweepChanges } from './sweep-detect.js';
import type { SweepReply, SweepRequest } from './sweep-protocol.js';

/** Reads the snapshot the last full check wrote, or why it cannot be used. */
function loadBaseline(request: SweepRequest): SweepBaseline | string {
  const database = openSqlite(request.indexPath, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    const signature = database.prepare('SELECT value FROM meta WHERE key = ?').pluck().get('signature');
    // Another store set or root wrote it since (another process): only the full check can tell.
    if (signature !== request.signature) return 'the index was rebuilt for another store set';
    const packed = database.prepare('SELECT names, numbers FROM snapshot WHERE id = 0').get() as
      | PackedSnapshot
      | undefined;
    return packed ? sweepBaseline(packed) : 'the index has no snapshot';
  } finally {
    database.close();
  }
}

/**
 * This thread's CPU: Node 23.9+ tells it, Linux's /proc/thread-self/schedstat too (before
 * 23.9); elsewhere undefined, and the wall time stands for it (never less on a busy machine).
 */
const threadCpuMs = (): number | undefined => {
  const usage = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage?.();
  if (usage) return (usage.user + usage.system) / 1_000;
  try {
    const ns = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Background work: on Linux this thread alone gets a lower priority (nice 10; `setpriority` on
 * a thread id applies to that thread), so on a busy machine the thread that answers queries
 * runs first — measured at 500,000 records on a loaded 2-core machine, a query's slow moments
 * during a sweep were time spent waiting for a core, not work. Elsewhere (no thread id to
 * name) it keeps the process's priority.
 */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: the sweep runs at the process's priority.
  }
}
lowerPriority();

const kept: { generation?: number; baseline?: SweepBaseline } = {};

function sweep(request: SweepRequest): SweepReply {
  if (kept.generation !== request.generation || !kept.baseline) {
    kept.baseline = undefined;
    const loaded = loadBaseline(request);
    if (typeof loaded === 'string') return { full: loaded, costMs: 0 };
    kept.baseline = loaded;
    kept.generation = request.generation;
  }
  const finding = sweepChanges(request.root, request.stores, kept.baseline, request.max);
  // After `full` the main thread's full check writes a new snapshot: loaded at the next sweep.
  if ('full' in finding) kept.baseline = undefined;
  return { ...finding, costMs: 0 };
}

parentPort?.on('message', (request: SweepRequest) => {
  const wall = performance.now();
  const cpu = threadCpuMs();
  let reply: SweepReply;
  try {
    reply = sweep(request);
  } catch (error) {
    // A folder unreadable, the index busy past its timeout: the full check says what it is.
    kept.baseline = undefined;
    reply = { full: `the sweep failed: ${(error as Error).message}`, costMs: 0 };
  }
  const cpuAfter = threadCpuMs();
  reply.costMs = cpu === undefined || cpuAfter === undefined ? performance.now() - wall : cpuAfter - cpu;
  parentPort?.postMessage(reply);
});
