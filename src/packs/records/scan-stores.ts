import { glossOf } from './gloss.js';
import { absoluteOf, listRecordDirs, recordPathOf } from './list-record-dirs.js';
import { parseRecord, type RecordFields } from './parse-record.js';
import { readRegularFile } from './read-regular-file.js';
import type { StoreInfo } from './stores.js';

export interface RecordEntry {
  /** Relative to the root, forward slashes: what queries print and --cat accepts. */
  path: string;
  store: string;
  mtimeMs: number;
  size: number;
  ctimeMs: number;
  fields: RecordFields;
  gloss: string;
  errors: string[];
  body: string;
  /** Set when the frontmatter cannot be represented: lint reports it, queries skip it. */
  unrepresentable?: string;
}

export interface ScannedFile {
  path: string;
  store: string;
  absolute: string;
}

export { isExcluded } from './list-record-dirs.js';

/**
 * Lists record files (`*.md`) in the stores without following symlinks — a link is never a
 * record, so it can never be dumped — and every directory walked (for change detection).
 */
export function listRecordFiles(root: string, stores: StoreInfo[]): { files: ScannedFile[]; dirs: string[] } {
  const listed = listRecordDirs(root, stores);
  return {
    files: listed.flatMap((dir) =>
      dir.files.map((file) => ({
        path: recordPathOf(dir, file.name),
        store: dir.store,
        absolute: absoluteOf(dir, file.name),
      })),
    ),
    dirs: listed.map((dir) => dir.dir),
  };
}

/**
 * Characters a record's path may not hold: controls (a newline above all), DEL, the Unicode
 * line and paragraph separators, and the bidi marks. A query prints one record per line and
 * `--cat` splits its arguments on newlines, so `a\nfake.md — forged gloss.md` would print a
 * record line that is not one, and could never be dumped; a bidi mark reorders what a line shows.
 */
const UNPRINTABLE_IN_PATH = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Why `path` cannot be a record (see UNPRINTABLE_IN_PATH), or undefined. */
export function unprintablePath(path: string): string | undefined {
  const found = UNPRINTABLE_IN_PATH.exec(path)?.[0];
  if (found === undefined) return undefined;
  const code = `U+${(found.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  return `its path holds a control character (${code}): a query prints one record per line, so it is skipped by queries. Rename the file (or its folder).`;
}

/**
 * Reads one listed record, or undefined when it is gone or no longer a regular file (a FIFO,
 * device or link swapped in since it was listed): such a path is not a record.
 */
export function readRecord(file: ScannedFile): RecordEntry | undefined {
  let read: ReturnType<typeof readRegularFile>;
  try {
    read = readRegularFile(file.absolute);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  if ('notRegular' in read) return undefined;
  const { stats } = read;
  const parsed = parseRecord(read.content);
  const entry: RecordEntry = {
    path: file.path,
    store: file.store,
    mtimeMs: stats.mtimeMs,
    size: stats.size,
    ctimeMs: stats.ctimeMs,
    fields: parsed.fields,
    gloss: glossOf(parsed.body),
    errors: parsed.errors,
    body: parsed.body,
  };
  // Set only when there is one, without an object spread per record (a build reads thousands).
  if (parsed.unrepresentable !== undefined) entry.unrepresentable = parsed.unrepresentable;
  const unprintable = unprintablePath(file.path);
  if (unprintable !== undefined) {
    entry.unrepresentable = unprintable;
    entry.errors = [unprintable];
  }
  return entry;
}
