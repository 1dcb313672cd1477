import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { glossOf } from './gloss.js';
import { parseRecord, type RecordFields } from './parse-record.js';
import { readRegularFile } from './read-regular-file.js';
import type { StoreInfo } from './stores.js';

export interface RecordEntry {
  /** Relative to the root, forward slashes: what queries print and --cat accepts. */
  path: string;
  store: string;
  mtimeMs: number;
  size: number;
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

/** Excluded from queries: INDEX.md, and anything under a segment containing `_archived`. */
export function isExcluded(relativePath: string): boolean {
  const segments = relativePath.split('/');
  return segments.at(-1) === 'INDEX.md' || segments.some((segment) => segment.includes('_archived'));
}

/**
 * Lists record files (`*.md`) in the stores without following symlinks — a link is never a
 * record, so it can never be dumped — and every directory walked (for change detection).
 */
export function listRecordFiles(root: string, stores: StoreInfo[]): { files: ScannedFile[]; dirs: string[] } {
  const files: ScannedFile[] = [];
  const dirs: string[] = [];
  for (const store of stores.filter((candidate) => candidate.exists)) {
    const stack = [store.absolute];
    while (stack.length > 0) {
      const directory = stack.pop() as string;
      dirs.push(directory);
      for (const dirent of readdirSync(directory, { withFileTypes: true })) {
        const absolute = join(directory, dirent.name);
        const path = relative(root, absolute).split(sep).join('/');
        if (dirent.name.includes('_archived') || dirent.name === '.git') continue;
        if (dirent.isDirectory()) stack.push(absolute);
        else if (dirent.isFile() && dirent.name.endsWith('.md') && !isExcluded(path))
          files.push({ path, store: store.store, absolute });
      }
    }
  }
  return { files, dirs };
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
  return {
    path: file.path,
    store: file.store,
    mtimeMs: stats.mtimeMs,
    size: stats.size,
    fields: parsed.fields,
    gloss: glossOf(parsed.body),
    errors: parsed.errors,
    body: parsed.body,
    ...(parsed.unrepresentable !== undefined ? { unrepresentable: parsed.unrepresentable } : {}),
  };
}
