import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type PackedSnapshot, unpackSnapshot } from './index-snapshot.js';
import {
  absoluteOf,
  isExcluded,
  listRecordDirs,
  type RecordDirEntry,
  recordPathOf,
} from './list-record-dirs.js';
import type { StoreInfo } from './stores.js';

/**
 * What the sweep compares the disk with: every folder of the stores with its record files'
 * mtime, size and ctime, as the index's snapshot held them at the last full check, then as
 * each sweep saw them. Kept by the sweep's worker between sweeps.
 */
export type SweepBaseline = Map<string, RecordDirEntry>;

/** The paths that changed since the baseline (files and folders, absolute), or `full` with why. */
export type SweepFinding = { paths: string[] } | { full: string };

export function sweepBaseline(packed: PackedSnapshot): SweepBaseline {
  return new Map(unpackSnapshot(packed).map((dir) => [dir.dir, dir]));
}

const sameFile = (
  file: { mtimeMs: number; size: number; ctimeMs: number },
  stats: { mtimeMs: number; size: number; ctimeMs: number },
) => stats.mtimeMs === file.mtimeMs && stats.size === file.size && stats.ctimeMs === file.ctimeMs;

/**
 * Looks at every folder and record file of the baseline as the full check does (a folder by
 * its mtime and ctime, re-listed when they moved; a file by its mtime, size and ctime, so an
 * in-place edit with its size and mtime put back is seen by its ctime), and names what differs:
 * a file changed, added, gone or no longer a regular file (only `lstat`ed, never opened: a
 * FIFO cannot block it), a folder that appeared (walked here too) or went. The names are
 * what a watcher's events would have named, for record-delta.ts to place; the baseline is
 * brought to what was seen. `full` when a store's folder appeared or went (the root changed)
 * or more than `max` paths changed (a checkout, a sync: the full check costs about the same).
 */
export function sweepChanges(
  root: string,
  stores: StoreInfo[],
  baseline: SweepBaseline,
  max: number,
): SweepFinding {
  for (const store of stores)
    if (existsSync(store.absolute) !== store.exists)
      return { full: `the store ${store.store} appeared or went` };
  // A store's own folder may be a link (listRecordDirs follows it); a folder below one never is.
  const storeFolders = new Set(stores.filter((store) => store.exists).map((store) => store.absolute));
  const changed: string[] = [];
  // Folders gone: what was under them went with them (record-delta drops a folder's subtree).
  const gone = new Set<string>();
  const underGone = (dir: string) => {
    for (let up = dirname(dir); up !== dir && up.length >= root.length; dir = up, up = dirname(up))
      if (gone.has(up)) return true;
    return false;
  };
  const walkNew = (absolute: string, store: string) => {
    for (const dir of listRecordDirs(root, [{ store, absolute, exists: true, extra: false }])) {
      dir.files = dir.files.flatMap((file) => {
        const stats = lstatSync(absoluteOf(dir, file.name), { throwIfNoEntry: false });
        return stats?.isFile()
          ? [{ ...file, mtimeMs: stats.mtimeMs, size: stats.size, ctimeMs: stats.ctimeMs }]
          : [];
      });
      baseline.set(dir.dir, dir);
    }
  };
  for (const entry of [...baseline.values()]) {
    if (changed.length > max) return { full: `more than ${max} paths changed` };
    if (gone.size > 0 && underGone(entry.dir)) {
      baseline.delete(entry.dir);
      continue;
    }
    const stats = storeFolders.has(entry.dir)
      ? statSync(entry.dir, { throwIfNoEntry: false })
      : lstatSync(entry.dir, { throwIfNoEntry: false });
    if (!stats?.isDirectory()) {
      // Removed, renamed away, or replaced by a link or a file: its records go.
      changed.push(entry.dir);
      gone.add(entry.dir);
      baseline.delete(entry.dir);
      continue;
    }
    if (stats.mtimeMs === entry.mtimeMs && stats.ctimeMs === entry.ctimeMs) {
      // Same names as before (an add, a removal or a rename moves both): each file's own stats.
      entry.files = entry.files.filter((file) => {
        const absolute = absoluteOf(entry, file.name);
        const current = lstatSync(absolute, { throwIfNoEntry: false });
        if (current?.isFile() && sameFile(file, current)) return true;
        changed.push(absolute);
        if (!current?.isFile()) return false;
        file.mtimeMs = current.mtimeMs;
        file.size = current.size;
        file.ctimeMs = current.ctimeMs;
        return true;
      });
      continue;
    }
    // Times taken before the listing, as listRecordDirs does: an add during it moves them again.
    entry.mtimeMs = stats.mtimeMs;
    entry.ctimeMs = stats.ctimeMs;
    const before = new Map(entry.files.map((file) => [file.name, file]));
    const files: RecordDirEntry['files'] = [];
    for (const dirent of readdirSync(entry.dir, { withFileTypes: true })) {
      const name = dirent.name;
      if (name.includes('_archived') || name === '.git') continue;
      const absolute = join(entry.dir, name);
      if (dirent.isDirectory()) {
        if (baseline.has(absolute)) continue;
        changed.push(absolute);
        walkNew(absolute, entry.store);
        continue;
      }
      if (!(dirent.isFile() && name.endsWith('.md') && !isExcluded(recordPathOf(entry, name)))) continue;
      const old = before.get(name);
      before.delete(name);
      const current = lstatSync(absolute, { throwIfNoEntry: false });
      if (!current?.isFile()) {
        if (old) changed.push(absolute);
        continue;
      }
      if (!old || !sameFile(old, current)) changed.push(absolute);
      files.push({ name, mtimeMs: current.mtimeMs, size: current.size, ctimeMs: current.ctimeMs });
    }
    // Gone, or no longer a regular file (a link, a FIFO): dropped, as the full listing would.
    for (const name of before.keys()) changed.push(absoluteOf(entry, name));
    entry.files = files;
  }
  if (changed.length > max) return { full: `more than ${max} paths changed` };
  return { paths: changed };
}
