import { statSync } from 'node:fs';
import { absoluteOf, type RecordDirEntry, recordPathOf } from './list-record-dirs.js';
import type { ScannedFile } from './scan-stores.js';

/**
 * What the index last saw on disk, packed into two values instead of a row per file: the
 * names (per directory: its path, store and prefix, then its file names, NUL-separated —
 * no file name can hold a NUL) and the numbers (per directory: mtime, ctime and file count,
 * then mtime, size and ctime per file). Checking it builds no object per file, so the
 * per-file check costs the `stat` calls and little else.
 */
export interface PackedSnapshot {
  names: Buffer;
  numbers: Buffer;
}

export function packSnapshot(dirs: RecordDirEntry[]): PackedSnapshot {
  const names: string[] = [];
  const numbers: number[] = [];
  for (const dir of dirs) {
    names.push(dir.dir, dir.store, dir.prefix);
    numbers.push(dir.mtimeMs, dir.ctimeMs, dir.files.length);
    for (const file of dir.files) {
      names.push(file.name);
      numbers.push(file.mtimeMs, file.size, file.ctimeMs);
    }
  }
  return {
    names: Buffer.from(names.join('\0'), 'utf8'),
    numbers: Buffer.from(new Float64Array(numbers).buffer),
  };
}

/** Numbers per directory (mtime, ctime, file count) and per file (mtime, size, ctime). */
const DIR_NUMBERS = 3;
const FILE_NUMBERS = 3;

function numbersOf(packed: PackedSnapshot): Float64Array {
  const { numbers } = packed;
  // A copy when SQLite's buffer is not 8-byte aligned (Float64Array needs it).
  const bytes = numbers.byteOffset % 8 === 0 ? numbers : Buffer.from(numbers);
  return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
}

export function unpackSnapshot(packed: PackedSnapshot): RecordDirEntry[] {
  const names = packed.names.toString('utf8').split('\0');
  const numbers = numbersOf(packed);
  const dirs: RecordDirEntry[] = [];
  let name = 0;
  let number = 0;
  while (name < names.length && number < numbers.length) {
    const dir = names[name] as string;
    const store = names[name + 1] as string;
    const prefix = names[name + 2] as string;
    const mtimeMs = numbers[number] as number;
    const ctimeMs = numbers[number + 1] as number;
    const count = numbers[number + 2] as number;
    name += 3;
    number += DIR_NUMBERS;
    const files = [];
    for (let index = 0; index < count; index++) {
      files.push({
        name: names[name++] as string,
        mtimeMs: numbers[number] as number,
        size: numbers[number + 1] as number,
        ctimeMs: numbers[number + 2] as number,
      });
      number += FILE_NUMBERS;
    }
    dirs.push({ dir, store, prefix, mtimeMs, ctimeMs, files });
  }
  return dirs;
}

/**
 * What a check `stat`s. `files`: every directory and every file. `dirs`: every directory, no
 * file. A partial check (`{ stores, paths, everyDir }`): every file of `stores` and the record
 * `paths` named; every directory with `everyDir` (a new record anywhere can change the
 * answer), else only the directories of `stores` and those above a named path (the ones a new
 * file or folder on the way to it changes). What a check skips keeps its old numbers in the
 * snapshot, so a later full check still sees its change.
 */
export type FileCheck = 'files' | 'dirs' | { stores: Set<string>; paths: Set<string>; everyDir: boolean };

/** The directory prefixes above each path (`a`, `a/b` for `a/b/c.md`): the folders a partial check stats. */
function foldersAbove(paths: Set<string>): Set<string> {
  // '' is the root itself, a store's folder when a store is `.` (TALLY_RECORDS_STORES=.).
  const folders = new Set<string>(['']);
  for (const path of paths) {
    let slash = path.indexOf('/');
    while (slash !== -1) {
      folders.add(path.slice(0, slash));
      slash = path.indexOf('/', slash + 1);
    }
  }
  return folders;
}

/**
 * Checks the snapshot against the disk: `relist` when a directory changed (a file added,
 * removed, renamed or saved atomically: its mtime and ctime move; a put-back mtime still moves
 * the ctime); else the files whose mtime, size or ctime changed (an edit in place — directory
 * times cannot see it), or none. `dirs` skips the per-file `stat`s.
 */
export function changesSince(packed: PackedSnapshot, check: FileCheck): 'relist' | ScannedFile[] {
  const names = packed.names.toString('utf8').split('\0');
  const numbers = numbersOf(packed);
  const changed: ScannedFile[] = [];
  const partial = typeof check === 'object' ? check : undefined;
  const folders = partial && !partial.everyDir ? foldersAbove(partial.paths) : undefined;
  let name = 0;
  let number = 0;
  while (name < names.length && number < numbers.length) {
    const dir = { dir: names[name] as string, prefix: names[name + 2] as string };
    const store = names[name + 1] as string;
    const count = numbers[number + 2] as number;
    // Every file of the folder is wanted (`files`, a wanted store), some (named paths), or none.
    const every = check === 'files' || (partial?.stores.has(store) ?? false);
    const wanted = every || !partial || partial.everyDir || (folders as Set<string>).has(dir.prefix);
    if (wanted) {
      const stats = statSync(dir.dir, { throwIfNoEntry: false });
      if (!stats || stats.mtimeMs !== numbers[number] || stats.ctimeMs !== numbers[number + 1])
        return 'relist';
    }
    name += 3;
    number += DIR_NUMBERS;
    // A folder none of whose files is wanted is skipped without a string built per file.
    if (check === 'dirs' || (!every && (partial as { paths: Set<string> }).paths.size === 0)) {
      name += count;
      number += FILE_NUMBERS * count;
      continue;
    }
    for (let index = 0; index < count; index++, name++, number += FILE_NUMBERS) {
      const file = names[name] as string;
      if (!every && !(partial as { paths: Set<string> }).paths.has(recordPathOf(dir, file))) continue;
      const absolute = absoluteOf(dir, file);
      const current = statSync(absolute, { throwIfNoEntry: false });
      if (
        !current ||
        current.mtimeMs !== numbers[number] ||
        current.size !== numbers[number + 1] ||
        current.ctimeMs !== numbers[number + 2]
      )
        changed.push({ path: recordPathOf(dir, file), store, absolute });
    }
  }
  return changed;
}
