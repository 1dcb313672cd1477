import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { StoreInfo } from './stores.js';

export interface RecordFileEntry {
  name: string;
  /** NaN until the file has been stat-ed or read. */
  mtimeMs: number;
  size: number;
  /**
   * The inode change time: moved by every write, chmod or rename and settable by no user call,
   * so an edit whose mtime was put back (`touch -d`, tar, rsync) with the same size is still seen.
   */
  ctimeMs: number;
}

/** One directory of a store and the record files directly in it. */
export interface RecordDirEntry {
  dir: string;
  store: string;
  /** The directory relative to the root, forward slashes: `prefix/name` is the record path. */
  prefix: string;
  mtimeMs: number;
  /** Moves with mtime on every add, removal or rename, and also when mtime is put back. */
  ctimeMs: number;
  files: RecordFileEntry[];
}

export const recordPathOf = (dir: Pick<RecordDirEntry, 'prefix'>, name: string) =>
  dir.prefix === '' ? name : `${dir.prefix}/${name}`;

export const absoluteOf = (dir: Pick<RecordDirEntry, 'dir'>, name: string) =>
  dir.dir.endsWith('/') ? `${dir.dir}${name}` : `${dir.dir}/${name}`;

/**
 * A listed entry's path under `dir` (a normalised folder): what `join` gives, without its
 * normalising pass per folder where the separator is `/`.
 */
const childOf = (dir: string, name: string) => (sep === '/' ? absoluteOf({ dir }, name) : join(dir, name));

/** Excluded from queries: INDEX.md, and anything under a segment containing `_archived`. */
export function isExcluded(relativePath: string): boolean {
  const segments = relativePath.split('/');
  return segments.at(-1) === 'INDEX.md' || segments.some((segment) => segment.includes('_archived'));
}

/**
 * Every directory of the stores with its record files (`*.md`), never following symlinks —
 * a link is never a record, so it can never be dumped. Each directory's mtime is taken
 * BEFORE it is read: a file added during the walk changes it again, so the next call relists.
 */
export function listRecordDirs(root: string, stores: StoreInfo[]): RecordDirEntry[] {
  const dirs: RecordDirEntry[] = [];
  for (const store of stores.filter((candidate) => candidate.exists)) {
    // The prefix as the old walker spelled paths: relative to the root, forward slashes.
    const stack: [string, string][] = [[store.absolute, relative(root, store.absolute).split(sep).join('/')]];
    while (stack.length > 0) {
      const [dir, prefix] = stack.pop() as [string, string];
      const stats = statSync(dir);
      const entry: RecordDirEntry = {
        dir,
        store: store.store,
        prefix,
        mtimeMs: stats.mtimeMs,
        ctimeMs: stats.ctimeMs,
        files: [],
      };
      dirs.push(entry);
      // isExcluded(prefix/name), decided once per folder: no name taken here contains
      // `_archived` (skipped just below), so only the prefix can, and `INDEX.md` is the name.
      // Splitting every record's path was ~100 ms of a 50,000-record build (issue 22).
      const archived = isExcluded(`${prefix}/.`);
      const dirents = readdirSync(dir, { withFileTypes: true });
      for (let index = 0; index < dirents.length; index++) {
        const dirent = dirents[index] as Dirent;
        const name = dirent.name;
        if (name.includes('_archived') || name === '.git') continue;
        if (dirent.isDirectory()) stack.push([childOf(dir, name), recordPathOf(entry, name)]);
        else if (dirent.isFile() && name.endsWith('.md') && !archived && name !== 'INDEX.md')
          entry.files.push({ name, mtimeMs: Number.NaN, size: Number.NaN, ctimeMs: Number.NaN });
      }
    }
  }
  return dirs;
}
