import { statSync } from 'node:fs';
import { absoluteOf, type RecordDirEntry, recordPathOf } from './list-record-dirs.js';
import type { ScannedFile } from './scan-stores.js';

/**
 * What the index last saw on disk, packed into two values instead of a row per file: the
 * names (per directory: its path, store and prefix, then its file names, NUL-separated —
 * no file name can hold a NUL) and the numbers (per directory: mtime and file count, then
 * mtime and size per file). Checking it builds no object per file, so the per-file check
 * costs the `stat` calls and little else.
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
    numbers.push(dir.mtimeMs, dir.files.length);
    for (const file of dir.files) {
      names.push(file.name);
      numbers.push(file.mtimeMs, file.size);
    }
  }
  return {
    names: Buffer.from(names.join('\0'), 'utf8'),
    numbers: Buffer.from(new Float64Array(numbers).buffer),
  };
}

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
    const count = numbers[number + 1] as number;
    name += 3;
    number += 2;
    const files = [];
    for (let index = 0; index < count; index++) {
      files.push({
        name: names[name++] as string,
        mtimeMs: numbers[number] as number,
        size: numbers[number + 1] as number,
      });
      number += 2;
    }
    dirs.push({ dir, store, prefix, mtimeMs, files });
  }
  return dirs;
}

/**
 * Which files a check `stat`s, besides every directory: all (`files`), none (`dirs`), or every
 * file of `stores` and the record `paths` named — those that could change the answer; the
 * others keep their old numbers in the snapshot, so a later full check still sees their edits.
 */
export type FileCheck = 'files' | 'dirs' | { stores: Set<string>; paths: Set<string> };

/**
 * Checks the snapshot against the disk: `relist` when a directory changed (a file added,
 * removed, renamed or saved atomically); else the files whose mtime or size changed (an edit
 * in place — directory mtimes cannot see it), or none. `dirs` skips the per-file `stat`s.
 */
export function changesSince(packed: PackedSnapshot, check: FileCheck): 'relist' | ScannedFile[] {
  const names = packed.names.toString('utf8').split('\0');
  const numbers = numbersOf(packed);
  const changed: ScannedFile[] = [];
  let name = 0;
  let number = 0;
  while (name < names.length && number < numbers.length) {
    const dir = { dir: names[name] as string, prefix: names[name + 2] as string };
    const store = names[name + 1] as string;
    const count = numbers[number + 1] as number;
    const stats = statSync(dir.dir, { throwIfNoEntry: false });
    if (!stats || stats.mtimeMs !== numbers[number]) return 'relist';
    name += 3;
    number += 2;
    // A folder none of whose files is wanted is skipped without a string built per file.
    const every = check === 'files' || (check !== 'dirs' && check.stores.has(store));
    if (check === 'dirs' || (!every && check.paths.size === 0)) {
      name += count;
      number += 2 * count;
      continue;
    }
    for (let index = 0; index < count; index++, name++, number += 2) {
      const file = names[name] as string;
      if (!every && !(check as { paths: Set<string> }).paths.has(recordPathOf(dir, file))) continue;
      const absolute = absoluteOf(dir, file);
      const current = statSync(absolute, { throwIfNoEntry: false });
      if (!current || current.mtimeMs !== numbers[number] || current.size !== numbers[number + 1])
        changed.push({ path: recordPathOf(dir, file), store, absolute });
    }
  }
  return changed;
}
