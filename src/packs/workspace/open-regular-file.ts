import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ToolRejectedError } from '../../core/errors.js';
import {
  absentError,
  openRegularFile as openCore,
  openRegularFileSync as openCoreSync,
  type RegularFileRefusal,
} from '../../core/io/read-regular-file.js';
import { fileKind } from './file-kind.js';
import { NotARegularFileError } from './not-a-regular-file-error.js';

/**
 * The workspace's words for core's refusals: a directory points at fs_list, a FIFO or device
 * is NOT_A_REGULAR_FILE, a link met by the open itself (O_NOFOLLOW: it was swapped in after
 * the path was resolved) is FILE_CHANGED, and a missing file is ENOENT as the tools expect.
 */
function refuse(refusal: RegularFileRefusal, absolute: string, relative: string): never {
  if (refusal.refused === 'absent') throw absentError(absolute);
  if (refusal.refused === 'not-regular' && refusal.stats) {
    const kind = fileKind(refusal.stats);
    if (kind === 'directory')
      throw new ToolRejectedError('IS_A_DIRECTORY', `${relative} is a directory: use fs_list or fs_tree.`, {
        path: relative,
      });
    throw new NotARegularFileError(relative, kind);
  }
  throw new ToolRejectedError(
    'FILE_CHANGED',
    `${relative} was replaced by a symlink while being opened. Resolve it again: call the tool once more.`,
    { path: relative },
  );
}

/**
 * Opens a file for reading only if it is a regular file: lstat first (a FIFO or a device is
 * refused before any open), then core's non-blocking, no-follow open and the fstat of the
 * descriptor, which is what will actually be read (closes the check-then-open race).
 */
export async function openRegularFile(
  absolute: string,
  relative: string,
): Promise<{ handle: FileHandle; stats: Stats }> {
  const opened = await openCore(absolute, { lstatFirst: true });
  if ('refused' in opened) refuse(opened, absolute, relative);
  return opened;
}

/** The same checks, synchronous: for the search worker, which runs off the main thread. */
export function openRegularFileSync(absolute: string, relative: string): { fd: number; stats: Stats } {
  const opened = openCoreSync(absolute, { lstatFirst: true });
  if ('refused' in opened) refuse(opened, absolute, relative);
  return opened;
}
