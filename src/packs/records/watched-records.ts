import { type FSWatcher, watch } from 'node:fs';
import { IndexedRecords } from './indexed-records.js';
import { openRecordSource } from './open-record-source.js';
import type { RecordSource } from './record-query.js';
import { listStores, type StoreInfo } from './stores.js';

/** How often a watched source re-checks every file anyway (a missed or dropped event). */
export const RECORDS_SWEEP_MS = 60_000;

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
}

// Linux's inotify watches one directory, not a tree: there each directory of the snapshot gets
// its own watcher (a directory watch sees edits of the files directly in it). macOS and Windows
// watch a tree natively with `recursive`.
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * A records source for a long-lived process (the MCP server, the scout tool, library users):
 * the index is opened and checked once, then kept fresh by file-system events instead of a
 * check of every file per call (≈110 ms of `stat` at 50,000 records). Any event under a store
 * (an add, a removal, a rename, an in-place edit) marks the index dirty; the next call runs
 * the full check, so it sees what the event was about and anything else that changed. A sweep
 * runs the full check every `sweepMs` anyway (events can be dropped: an inotify queue overflow,
 * a network file system that sends none). Where no watcher can be set (inotify's watch limit,
 * a platform without fs.watch, an index that could not be kept), it falls back to the full
 * check on every call, and says so through `onFallback`.
 */
export function watchRecordSource(root: string, options: WatchRecordsOptions = {}): WatchedRecordSource {
  const env = options.env ?? process.env;
  const stores = options.stores ?? (() => listStores(root, env));
  const open = () =>
    openRecordSource(root, stores(), {
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
  };
  const markDirty = () => {
    state.dirty = true;
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
    const existing = stores().filter((store) => store.exists);
    // The root itself too: a store folder created under it after start shows there.
    const targets = new Set(
      NATIVE_RECURSIVE
        ? [root, ...existing.map((store) => store.absolute)]
        : [root, ...state.source.directories()],
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
        const watcher = watch(target, { recursive, persistent: false }, markDirty);
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
    // Cleared before the check: an event during it marks the index dirty again.
    state.dirty = false;
    state.paths = undefined;
    state.source.close();
    state.source = open();
    // A folder that just appeared was listed before its watcher existed: a file written in it
    // in between is seen by one more check, at the next call.
    if (arm()) state.dirty = true;
  };
  const current = (): RecordSource => {
    if (state.closed) throw new Error('the records source is closed');
    if (state.dirty) check();
    return state.source;
  };
  arm();
  const sweep = setInterval(() => {
    if (!state.closed) check();
  }, options.sweepMs ?? RECORDS_SWEEP_MS);
  sweep.unref();
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
      clearInterval(sweep);
      unwatch();
      state.source.close();
    },
  };
}
