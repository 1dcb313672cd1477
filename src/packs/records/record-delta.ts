import { lstatSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import {
  absoluteOf,
  isExcluded,
  listRecordDirs,
  type RecordDirEntry,
  recordPathOf,
} from './list-record-dirs.js';
import type { ScannedFile } from './scan-stores.js';

/** A folder the index covers: its store and its path relative to the root (the record paths' prefix). */
export interface KnownFolder {
  store: string;
  prefix: string;
}

/**
 * What the paths a file-system watcher named have become: the record files to read again (a
 * path read as gone drops its record), the folders whose records all go (removed or renamed
 * away), and the folders that appeared (walked here; the caller watches them).
 */
export interface RecordDelta {
  read: ScannedFile[];
  /** Record paths gone, or no longer regular files (never opened: a FIFO could block a read). */
  removed: string[];
  removedPrefixes: string[];
  added: RecordDirEntry[];
}

/**
 * Turns changed absolute paths (a watched folder joined with an event's file name) into a
 * delta by looking at each path as it is NOW (`lstat`, never following a link), so the order
 * and number of the events do not matter. `full` when a path is in an existing folder the
 * index does not cover (a new folder deeper than one event names, as a recursive watcher can
 * report): only the full check can place it. Folders change in `folders` as the delta says.
 */
export function recordDelta(
  root: string,
  folders: Map<string, KnownFolder>,
  changed: Iterable<string>,
): RecordDelta | 'full' {
  const delta: RecordDelta = { read: [], removed: [], removedPrefixes: [], added: [] };
  const walk = (absolute: string, store: string) => {
    // The subtree as the full listing would list it (no links followed, `_archived` skipped).
    for (const dir of listRecordDirs(root, [{ store, absolute, exists: true, extra: false }])) {
      folders.set(dir.dir, { store: dir.store, prefix: dir.prefix });
      delta.added.push(dir);
      for (const file of dir.files)
        delta.read.push({ path: recordPathOf(dir, file.name), store, absolute: absoluteOf(dir, file.name) });
    }
  };
  for (const path of changed) {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    const known = folders.get(path);
    if (known) {
      // A folder the index covers was named by its parent's watcher: removed, renamed away or
      // over, or its attributes changed. Its records go, and what is there now is walked again.
      for (const folder of [...folders.keys()])
        if (folder === path || folder.startsWith(`${path}/`)) folders.delete(folder);
      delta.removedPrefixes.push(known.prefix);
      if (stats?.isDirectory()) walk(path, known.store);
      continue;
    }
    const parent = folders.get(dirname(path));
    if (!parent) {
      // A folder gone (removed with its parent's event in this delta or an earlier one: the
      // parent's watcher names it, and its records went then) holds nothing to index.
      if (!lstatSync(dirname(path), { throwIfNoEntry: false })?.isDirectory()) continue;
      return 'full';
    }
    const name = basename(path);
    if (name.includes('_archived') || name === '.git') continue;
    const record = recordPathOf(parent, name);
    if (stats?.isDirectory()) walk(path, parent.store);
    // Named like a record: a regular file is (re)read (the read checks again, without following
    // a link); anything else there, or nothing, drops its record, as the full listing would.
    else if (name.endsWith('.md') && !isExcluded(record)) {
      if (stats?.isFile()) delta.read.push({ path: record, store: parent.store, absolute: path });
      else delta.removed.push(record);
    }
  }
  return delta;
}
