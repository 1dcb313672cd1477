import { type FSWatcher, watch } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { IndexedRecords, indexSignature } from './indexed-records.js';
import { openRecordSource } from './open-record-source.js';
import { type KnownFolder, recordDelta } from './record-delta.js';
import type { RecordSource } from './record-query.js';
import { listStores, type StoreInfo } from './stores.js';
import { isSweepReply, type SweepRequest } from './sweep-protocol.js';
import { startSweepWorker } from './sweep-worker-start.js';

/** How often a watched source re-checks every file anyway (a missed or dropped event). */
export const RECORDS_SWEEP_MS = 60_000;

/**
 * What to do when the system's watch limit is reached. On Linux each watched folder takes one
 * inotify watch of the user's `max_user_watches`, and every process watching the same records
 * (the MCP server, `tally records serve` behind the CLI) takes its own: two at 500,000 records
 * (~100,000 folders) pass a limit of 192,000.
 */
const WATCH_LIMIT_ADVICE: Record<string, string> = {
  ENOSPC:
    '. Each watched folder takes one inotify watch, in every process watching these records: raise the limit (sudo sysctl fs.inotify.max_user_watches=1048576), or stop another watcher (`tally records serve` exits after --idle-exit seconds)',
  EMFILE:
    '. Too many inotify instances or open files: raise fs.inotify.max_user_instances or `ulimit -n`, or stop another watcher',
};

/**
 * The sweep's period grows with what the last one cost, so it takes at most 1/50 (2 %) of a
 * core: the worker's CPU for its detection (its wall time where neither Node, from 23.9, nor
 * Linux's /proc tells a thread's CPU) plus what the answering thread spent on it (the full check, when the
 * worker answered `full` or could not run). The detection no longer holds up queries, but it
 * still competes for the machine's cores. At 50,000 records it keeps the 60 s period; at
 * 500,000 (a few seconds of the worker's CPU) it runs every few minutes, never back to back
 * where a loaded machine stretched one past the period.
 */
export const RECORDS_SWEEP_COST_SHARE = 50;

/** The delay before the next sweep, after one that cost `costMs` (RECORDS_SWEEP_COST_SHARE). */
export function nextSweepMs(sweepMs: number, costMs: number): number {
  return Math.max(sweepMs, costMs * RECORDS_SWEEP_COST_SHARE);
}

/**
 * What a sweep did, told to `onSweep`: `detect` when it asked its worker (the answering thread
 * is free meanwhile); `delta` when the worker named `paths` changed paths (queued for the next
 * call, as events are); `full` when the full check ran on the answering thread instead, and why.
 */
export type SweepEvent =
  | { phase: 'detect' }
  | { phase: 'delta'; paths: number }
  | { phase: 'full'; why: string };

/**
 * Changed paths held for the next call before it gives up on them and runs the full check.
 * The delta costs a `lstat` and a read per path, the full check a `stat` per file of the
 * corpus plus the reads: at 50,000 records (~0.35 s of stats) 4,096 reads cost about as much,
 * and a burst that big is a checkout or a sync. It also bounds what a storm of events keeps.
 */
export const RECORDS_DELTA_MAX = 4_096;

export interface WatchedRecordSource extends RecordSource {
  /**
   * Resolves once every file-system event already delivered to this process has been seen and
   * the index brought up to date: await it before a query that must see an edit made just
   * before. The records tools of the MCP server and the scout do, on every call.
   */
  fresh(): Promise<void>;
  /**
   * `watch` (events, plus the sweep) or `per-call` (no watcher could be set: every `fresh()`
   * runs the full check; queries without it answer from the last check).
   */
  readonly mode: 'watch' | 'per-call';
}

export interface WatchRecordsOptions {
  env?: NodeJS.ProcessEnv;
  /** `--index PATH`: as `openRecordSource`. */
  indexPath?: string;
  /** The verification sweep's period; default RECORDS_SWEEP_MS. */
  sweepMs?: number;
  /** Told once when watching is not possible and every call re-checks instead. */
  onFallback?: (why: string) => void;
  /** Stores of the root (default `listStores(root, env)`, read again at every full check). */
  stores?: () => StoreInfo[];
  /** Pending paths above which a call runs the full check instead; default RECORDS_DELTA_MAX. */
  deltaMax?: number;
  /** Told what each sweep did (tests, diagnostics). */
  onSweep?: (event: SweepEvent) => void;
  /** Starts the sweep's worker; default startSweepWorker (tests pass one that fails). */
  startSweepWorker?: () => Worker;
  /** Sets a file-system watcher; default `fs.watch` (tests pass one that drops every event). */
  watch?: typeof watch;
}

// Linux's inotify watches one directory, not a tree: there each directory of the snapshot gets
// its own watcher (a directory watch sees edits of the files directly in it). macOS and Windows
// watch a tree natively with `recursive`.
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * A records source for a long-lived process (the MCP server, the scout tool, library users):
 * the index is opened and checked once, then kept fresh by file-system events instead of a
 * check of every file per call (≈110 ms of `stat` at 50,000 records, ~5 s at 500,000). An
 * event names a path (the watched folder joined with the file name); the next call looks at
 * only those paths as they are now (record-delta.ts): a file read again or dropped, a new
 * folder walked and watched, a removed one's records dropped. The full check runs instead
 * when the paths are not known or too many: an event without a file name, a watcher error,
 * a store's folder (or the folder above one) changing under the root, a path under no folder
 * the index covers, more than `deltaMax` paths. A sweep every `sweepMs` (or 50× what the last
 * one cost, when that is longer: RECORDS_SWEEP_COST_SHARE) looks at every folder and file
 * anyway (events can be dropped: an inotify queue overflow, which Node does not report, a
 * network file system that sends none): a worker thread compares them with the index's
 * snapshot (sweep-worker.ts) and names what changed, and those paths are applied like an
 * event's, so a query is not held up by the sweep; the full check runs on this thread only
 * when the worker cannot place the change (a store appeared or went, more than `deltaMax`
 * paths) or no worker can run. Where no watcher can be set (inotify's watch limit,
 * a platform without fs.watch, an index that could not be kept), it falls back to the full
 * check on every call, and says so through `onFallback`.
 */
export function watchRecordSource(root: string, options: WatchRecordsOptions = {}): WatchedRecordSource {
  const env = options.env ?? process.env;
  const stores = options.stores ?? (() => listStores(root, env));
  // The stores as the last full check listed them (a store folder appearing is a root event,
  // which runs the full check).
  // The store heads: first segments of the stores' paths under the root. An event at the root
  // naming one may be a store's folder (or the folder above one) appearing or going; other names
  // there (a file next to the stores) cannot change a record.
  const heads = (list: StoreInfo[]) =>
    new Set(list.map((store) => relative(root, store.absolute).split(sep)[0] as string));
  const listed = { stores: stores(), heads: new Set<string>() };
  listed.heads = heads(listed.stores);
  const foldersOf = (source: RecordSource) =>
    source instanceof IndexedRecords ? source.folders() : new Map<string, KnownFolder>();
  const open = () =>
    openRecordSource(root, listed.stores, {
      env,
      ...(options.indexPath ? { indexPath: options.indexPath } : {}),
      ...(options.onFallback ? { onFallback: options.onFallback } : {}),
    });
  const state = {
    source: open(),
    dirty: false,
    mode: 'watch' as 'watch' | 'per-call',
    // One watcher per watched folder, kept across checks: closing and re-creating them would
    // leave a gap in which an edit is missed.
    watchers: new Map<string, FSWatcher>(),
    closed: false,
    // Every path a query can return, built once per check: `records_cat` asks for it per call.
    paths: undefined as Set<string> | undefined,
    // Absolute paths named by events since the last call; the folders the index covers.
    pending: new Set<string>(),
    folders: new Map<string, KnownFolder>(),
    // Bumped by every full check: the sweep's worker loads the index's new snapshot.
    generation: 0,
  };
  const deltaMax = options.deltaMax ?? RECORDS_DELTA_MAX;
  const setWatch = options.watch ?? watch;
  const markDirty = () => {
    state.dirty = true;
  };
  const onEvent = (folder: string) => (_event: string, filename: string | Buffer | null) => {
    if (state.dirty) return;
    if (filename === null) return markDirty();
    const path = join(folder, filename.toString());
    if (!state.folders.has(folder) && !state.folders.has(path)) {
      // The root's own watcher (the root is not a store folder).
      if (listed.heads.has(filename.toString().split(sep)[0] as string)) markDirty();
      return;
    }
    state.pending.add(path);
    if (state.pending.size > deltaMax) markDirty();
  };
  const unwatch = () => {
    for (const watcher of state.watchers.values()) watcher.close();
    state.watchers.clear();
  };
  const fallBack = (why: string) => {
    unwatch();
    if (state.mode === 'per-call') return;
    state.mode = 'per-call';
    options.onFallback?.(`records are re-checked on every call: ${why}`);
  };
  /** Watches every folder of the current index; true when a folder was new to the watch. */
  const arm = (): boolean => {
    if (state.mode === 'per-call') return false;
    if (!(state.source instanceof IndexedRecords)) {
      fallBack('no index could be kept');
      return false;
    }
    const existing = listed.stores.filter((store) => store.exists);
    // The root itself too: a store folder created under it after start shows there.
    const targets = new Set(
      NATIVE_RECURSIVE ? [root, ...existing.map((store) => store.absolute)] : [root, ...state.folders.keys()],
    );
    let added = false;
    try {
      for (const [target, watcher] of state.watchers)
        if (!targets.has(target)) {
          watcher.close();
          state.watchers.delete(target);
        }
      for (const target of targets) {
        if (state.watchers.has(target)) continue;
        const recursive = NATIVE_RECURSIVE && target !== root;
        const watcher = setWatch(target, { recursive, persistent: false }, onEvent(target));
        // A watched folder removed or unreadable: the next call re-checks.
        watcher.on('error', markDirty);
        state.watchers.set(target, watcher);
        added = true;
      }
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'ERROR';
      fallBack(
        `${code} setting a file-system watcher (${(error as Error).message})${WATCH_LIMIT_ADVICE[code] ?? ''}`,
      );
    }
    return added;
  };
  const check = () => {
    // Cleared before the check: an event during it marks the index dirty again. The pending
    // paths are covered by the full check.
    state.generation += 1;
    state.dirty = false;
    state.pending.clear();
    state.paths = undefined;
    state.source.close();
    listed.stores = stores();
    listed.heads = heads(listed.stores);
    state.source = open();
    state.folders = foldersOf(state.source);
    // A folder that just appeared was listed before its watcher existed: a file written in it
    // in between is seen by one more check, at the next call.
    if (arm()) state.dirty = true;
  };
  /** Only the pending paths (record-delta.ts); the full check when they cannot be placed. */
  const checkPending = (index: IndexedRecords) => {
    const changed = [...state.pending];
    state.pending.clear();
    state.paths = undefined;
    const delta = recordDelta(root, state.folders, changed);
    if (delta === 'full') return check();
    index.applyDelta(delta.read, delta.removed, delta.removedPrefixes);
    if (delta.added.length === 0 && delta.removedPrefixes.length === 0) return;
    // A folder that appeared was walked before its watcher existed: it is walked once more at
    // the next call, so a file written in it in between is not missed. A removed folder's
    // watcher is closed.
    if (arm()) for (const dir of delta.added) state.pending.add(dir.dir);
  };
  const current = (): RecordSource => {
    if (state.closed) throw new Error('the records source is closed');
    if (state.dirty) check();
    else if (state.pending.size > 0 && state.source instanceof IndexedRecords) checkPending(state.source);
    return state.source;
  };
  state.folders = foldersOf(state.source);
  arm();
  const sweepMs = options.sweepMs ?? RECORDS_SWEEP_MS;
  const sweep = {
    timer: undefined as NodeJS.Timeout | undefined,
    // Started at the first sweep and kept (with what it saw) for the next; `broken` once one
    // failed or could not start: every later sweep is the full check here, as before workers.
    worker: undefined as Worker | undefined,
    broken: false,
  };
  const scheduleSweep = (delayMs: number) => {
    sweep.timer = setTimeout(runSweep, delayMs);
    sweep.timer.unref();
  };
  /** The full check on this thread, as the sweep ran before it had a worker; its cost. */
  const fullSweep = (why: string): number => {
    const started = performance.now();
    check();
    options.onSweep?.({ phase: 'full', why });
    return performance.now() - started;
  };
  const broken = (worker: Worker | undefined, why: string) => {
    sweep.broken = true;
    sweep.worker = undefined;
    void worker?.terminate();
    scheduleSweep(nextSweepMs(sweepMs, fullSweep(why)));
  };
  /**
   * Asks the worker what changed (sweep-worker.ts: folders and files stat-ed against the
   * index's snapshot, off this thread); the paths it names join the events' pending paths and
   * the next call applies them (record-delta.ts). `full` from the worker (a store appeared or
   * went, more than `deltaMax` paths) runs the full check here, as every sweep did before.
   */
  function runSweep(): void {
    if (state.closed) return;
    const index = state.source;
    if (sweep.broken || !(index instanceof IndexedRecords)) {
      // No index (a plain scan): nothing for a worker to compare with.
      scheduleSweep(nextSweepMs(sweepMs, fullSweep('no index for the sweep worker')));
      return;
    }
    let worker: Worker;
    try {
      if (!sweep.worker) {
        const started = (options.startSweepWorker ?? startSweepWorker)();
        // One that ends between sweeps is forgotten: the next sweep starts another (a request
        // posted to an ended worker would never be answered, and no sweep would follow).
        started.once('exit', () => {
          if (sweep.worker === started) sweep.worker = undefined;
        });
        sweep.worker = started;
      }
      worker = sweep.worker;
      // Never holds the process open (the timer does not either).
      worker.unref();
    } catch (error) {
      broken(undefined, `the sweep's worker could not start (${(error as Error).message})`);
      return;
    }
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onFailure);
      worker.off('exit', onFailure);
    };
    const onMessage = (reply: unknown) => {
      done();
      if (state.closed) return;
      if (!isSweepReply(reply)) return broken(worker, 'the sweep worker answered something else');
      const started = performance.now();
      if ('full' in reply) {
        const cost = fullSweep(reply.full);
        return scheduleSweep(nextSweepMs(sweepMs, reply.costMs + cost));
      }
      for (const path of reply.paths) state.pending.add(path);
      if (state.pending.size > deltaMax) markDirty();
      options.onSweep?.({ phase: 'delta', paths: reply.paths.length });
      scheduleSweep(nextSweepMs(sweepMs, reply.costMs + performance.now() - started));
    };
    const onFailure = (error: unknown) => {
      done();
      if (state.closed) return;
      broken(
        worker,
        `the sweep's worker failed (${error instanceof Error ? error.message : `exit code ${String(error)}`})`,
      );
    };
    worker.on('message', onMessage);
    worker.on('error', onFailure);
    worker.on('exit', onFailure);
    const request: SweepRequest = {
      root,
      stores: listed.stores,
      indexPath: index.file,
      signature: indexSignature(root, listed.stores),
      generation: state.generation,
      max: deltaMax,
    };
    worker.postMessage(request);
    options.onSweep?.({ phase: 'detect' });
  }
  scheduleSweep(sweepMs);
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    get mode() {
      return state.mode;
    },
    // Two turns of the event loop, each through its poll phase: an event the kernel queued
    // before this call (an edit made before the request was sent) has been delivered by then.
    // One turn is not always enough (measured: a watcher's first event can take two).
    // Without a watcher, `fresh` is the full check itself.
    fresh: async () => {
      await turn();
      await turn();
      if (state.mode === 'per-call' && !state.closed) check();
      current();
    },
    query: (query) => current().query(query),
    survey: (query) => current().survey(query),
    paths: () => {
      const source = current();
      state.paths ??= source.paths();
      return state.paths;
    },
    pathsAmong: (paths) => {
      const source = current();
      if (source instanceof IndexedRecords) return source.pathsAmong(paths);
      state.paths ??= source.paths();
      const all = state.paths;
      return new Set(paths.filter((path) => all.has(path)));
    },
    recallCandidates: (terms) => current().recallCandidates(terms),
    rows: () => current().rows(),
    skipped: () => current().skipped?.() ?? [],
    close: () => {
      if (state.closed) return;
      state.closed = true;
      clearTimeout(sweep.timer);
      void sweep.worker?.terminate();
      unwatch();
      state.source.close();
    },
  };
}
