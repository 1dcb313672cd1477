import { type FSWatcher, watch } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { IndexedRecords } from './indexed-records.js';
import { openRecordSource } from './open-record-source.js';
import { type KnownFolder, recordDelta } from './record-delta.js';
import type { RecordSource } from './record-query.js';
import { listStores, type StoreInfo } from './stores.js';

/** How often a watched source re-checks every file anyway (a missed or dropped event). */
export const RECORDS_SWEEP_MS = 60_000;

/**
 * The sweep runs on the thread that answers queries, so its period grows with what the last
 * one cost: at most 1/50 of the time (2 %). At 50,000 records a sweep (~0.5 s) keeps the
 * 60 s period; at 500,000 (~6 s of CPU) it runs every ~5 minutes instead of back to back
 * where a loaded machine stretched one past the period.
 */
export const RECORDS_SWEEP_COST_SHARE = 50;

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
 * the index covers, more than `deltaMax` paths. A sweep runs the full check every `sweepMs`
 * (or 50× what the last sweep cost, when that is longer: RECORDS_SWEEP_COST_SHARE)
 * anyway (events can be dropped: an inotify queue overflow, which Node does not report, a
 * network file system that sends none). Where no watcher can be set (inotify's watch limit,
 * a platform without fs.watch, an index that could not be kept), it falls back to the full
 * check on every call, and says so through `onFallback`.
 */
export function watchRecordSource(root: string, options: WatchRecordsOptions = {}): WatchedRecordSource {
  const env = options.env ?? process.env;
  const stores = options.stores ?? (() => listStores(root, env));
  // The stores as the last full check listed them (a store folder appearing is a root event,
  // which runs the full check).
  const listed = { stores: stores() };
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
  };
  const deltaMax = options.deltaMax ?? RECORDS_DELTA_MAX;
  const markDirty = () => {
    state.dirty = true;
  };
  // First segments of the stores' paths under the root: an event at the root naming one may
  // be a store's folder (or the folder above one) appearing or going. Other names there
  // (a file next to the stores) cannot change a record.
  const storeHeads = () =>
    new Set(listed.stores.map((store) => relative(root, store.absolute).split(sep)[0] as string));
  const onEvent = (folder: string) => (_event: string, filename: string | Buffer | null) => {
    if (state.dirty) return;
    if (filename === null) return markDirty();
    const path = join(folder, filename.toString());
    if (!state.folders.has(folder) && !state.folders.has(path)) {
      // The root's own watcher (the root is not a store folder).
      if (storeHeads().has(filename.toString().split(sep)[0] as string)) markDirty();
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
        const watcher = watch(target, { recursive, persistent: false }, onEvent(target));
        // A watched folder removed or unreadable: the next call re-checks.
        watcher.on('error', markDirty);
        state.watchers.set(target, watcher);
        added = true;
      }
    } catch (error) {
      fallBack(
        `${(error as { code?: string }).code ?? 'ERROR'} setting a file-system watcher (${(error as Error).message})`,
      );
    }
    return added;
  };
  const check = () => {
    // Cleared before the check: an event during it marks the index dirty again. The pending
    // paths are covered by the full check.
    state.dirty = false;
    state.pending.clear();
    state.paths = undefined;
    state.source.close();
    listed.stores = stores();
    state.source = open();
    state.folders = state.source instanceof IndexedRecords ? state.source.folders() : new Map();
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
  if (state.source instanceof IndexedRecords) state.folders = state.source.folders();
  arm();
  const sweepMs = options.sweepMs ?? RECORDS_SWEEP_MS;
  const sweep = { timer: undefined as NodeJS.Timeout | undefined };
  const scheduleSweep = (delayMs: number) => {
    sweep.timer = setTimeout(() => {
      if (state.closed) return;
      const started = performance.now();
      check();
      scheduleSweep(Math.max(sweepMs, (performance.now() - started) * RECORDS_SWEEP_COST_SHARE));
    }, delayMs);
    sweep.timer.unref();
  };
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
      unwatch();
      state.source.close();
    },
  };
}
