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
  return entry;
}
