import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { ToolRejectedError } from '../../core/errors.js';
import { fileKind } from './file-kind.js';
import { NotARegularFileError } from './not-a-regular-file-error.js';

/**
 * Security: O_NONBLOCK so that a FIFO swapped in after the check cannot block the open;
 * O_NOFOLLOW so that a symlink swapped in cannot redirect it. Both are absent on Windows.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

function refuseUnlessRegular(stats: Stats, relative: string): void {
  const kind = fileKind(stats);
  if (kind === 'file') return;
  if (kind === 'directory')
    throw new ToolRejectedError('IS_A_DIRECTORY', `${relative} is a directory: use fs_list or fs_tree.`, {
      path: relative,
    });
  throw new NotARegularFileError(relative, kind);
}

function refuseLink(error: unknown, relative: string): never {
  // ELOOP from O_NOFOLLOW: the entry became a symlink after it was resolved.
  if ((error as { code?: string }).code === 'ELOOP')
    throw new ToolRejectedError(
      'FILE_CHANGED',
      `${relative} was replaced by a symlink while being opened. Resolve it again: call the tool once more.`,
      { path: relative },
    );
  throw error;
}

/**
 * Opens a file for reading only if it is a regular file: lstat first (a FIFO or a device is
 * refused before any open), then open without blocking and fstat the descriptor, which is
 * what will actually be read (closes the check-then-open race).
 */
export async function openRegularFile(
  absolute: string,
  relative: string,
): Promise<{ handle: FileHandle; stats: Stats }> {
  refuseUnlessRegular(await lstat(absolute), relative);
  let handle: FileHandle;
  try {
    handle = await open(absolute, READ_FLAGS);
  } catch (error) {
    refuseLink(error, relative);
  }
  try {
    const stats = await handle.stat();
    refuseUnlessRegular(stats, relative);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The same checks, synchronous: for the search worker, which runs off the main thread. */
export function openRegularFileSync(absolute: string, relative: string): { fd: number; stats: Stats } {
  refuseUnlessRegular(lstatSync(absolute), relative);
  let fd: number;
  try {
    fd = openSync(absolute, READ_FLAGS);
  } catch (error) {
    refuseLink(error, relative);
  }
  try {
    const stats = fstatSync(fd);
    refuseUnlessRegular(stats, relative);
    return { fd, stats };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
