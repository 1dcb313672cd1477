import { closeSync, fsyncSync, ftruncateSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { reapStaleTempFiles, tallyTempPathFor } from './temp-files.js';

/** A temporary file just written, its descriptor still open: the caller closes it, and removes the file unless it renames it. */
export interface OpenTempFile {
  path: string;
  descriptor: number;
}

/**
 * Writes `data` to a fresh temporary file beside `target` and returns it with its descriptor
 * open: a crypto-random name carrying the pid (so a killed writer's file can be reaped),
 * created with O_EXCL (`wx`: never through a link planted under that name), then fsync-ed
 * (unless `durable` is false) so a rename that follows publishes content that is on disk. If
 * the write fails the file is emptied through its descriptor (the path may no longer reach
 * it), closed and removed.
 */
export function openTempFile(
  target: string,
  data: Buffer | string,
  mode: number,
  options: { durable?: boolean } = {},
): OpenTempFile {
  const path = tallyTempPathFor(target);
  const descriptor = openSync(path, 'wx', mode);
  let written = false;
  try {
    writeAllSync(descriptor, data);
    if (options.durable ?? true) fsyncSync(descriptor);
    written = true;
  } finally {
    if (!written) {
      // A full disk or a failed fsync leaves no half-written temporary file behind.
      try {
        ftruncateSync(descriptor, 0);
      } finally {
        closeSync(descriptor);
        removeIfPresent(path);
      }
    }
  }
  return { path, descriptor };
}

/** `openTempFile`, closed: the temporary file's path, its content written (and fsync-ed unless `durable` is false). */
export function writeTempFile(
  target: string,
  data: Buffer | string,
  mode: number,
  options: { durable?: boolean } = {},
): string {
  const temporary = openTempFile(target, data, mode, options);
  try {
    closeSync(temporary.descriptor);
  } catch (error) {
    removeIfPresent(temporary.path);
    throw error;
  }
  return temporary.path;
}

/** Writes all of `data` (a write may take less than it was given). */
export function writeAllSync(descriptor: number, data: Buffer | string): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(descriptor, bytes, offset, bytes.length - offset);
}

/** Removes a file that may already be gone (a temporary file renamed or reaped meanwhile). */
export function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
}

export interface AtomicWriteOptions {
  /** The new file's mode (default 0600: Tally's state is private). */
  mode?: number;
  /** Runs once the content is on disk under its temporary name, just before the rename; a throw cancels the write. */
  beforeRename?: (temporary: string) => void;
}

/**
 * Replaces `target` whole: a reader (or a process killed at any point) sees the old content
 * or the new, never a mix. Orphaned temporary files of earlier, killed writes of the same
 * target are reaped first. Security: rename replaces the directory entry itself, so a
 * symlink planted at `target` is replaced, never written through. The directory is the
 * caller's to check (a private state directory, a project root).
 */
export function writeFileAtomicSync(
  target: string,
  data: Buffer | string,
  options: AtomicWriteOptions = {},
): void {
  reapStaleTempFiles(target);
  publishTempFile(writeTempFile(target, data, options.mode ?? 0o600), target, options.beforeRename);
}

/**
 * Renames a finished temporary file over `target` (after `beforeRename`, whose throw cancels
 * it); on any failure the temporary file is removed and `target` stays as it was.
 */
export function publishTempFile(
  temporary: string,
  target: string,
  beforeRename?: (temporary: string) => void,
): void {
  let renamed = false;
  try {
    beforeRename?.(temporary);
    renameSync(temporary, target);
    renamed = true;
  } finally {
    if (!renamed) removeIfPresent(temporary);
  }
}
