import type { Stats } from 'node:fs';
import { isTallyError, TallyError } from '../../../core/errors.js';
import {
  absentError,
  type RegularFileRead,
  readRegularFileSync,
} from '../../../core/io/read-regular-file.js';

/** An input file (HAR, login recipe, explorbot capture) that Tally refuses to read. */
export class InputFileError extends TallyError {}

function describeKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/**
 * Reads a regular file as UTF-8, at most `limit` bytes, with core's checks: no symlink at
 * the path (O_NOFOLLOW), no FIFO, socket or device (opened non-blocking, fstat-ed before a
 * byte is read: none can block or run unbounded), and a file that grows past its checked
 * size while read is refused. Each refusal becomes this pack's INPUT_* error.
 */
export function readRegularFile(path: string, what: string, limit: number): string {
  let read: RegularFileRead;
  try {
    read = readRegularFileSync(path, { maxBytes: limit });
  } catch (error) {
    throw asInputFileError(path, what, error);
  }
  if ('text' in read) return read.text;
  switch (read.refused) {
    case 'absent':
      throw asInputFileError(path, what, absentError(path));
    case 'not-regular':
      throw new InputFileError(
        'INPUT_NOT_REGULAR_FILE',
        read.stats
          ? `The ${what} ${path} is ${describeKind(read.stats)}, not a regular file. Point it at a regular file.`
          : `The ${what} ${path} is a symbolic link; Tally reads input files only at their real path. Point it at the file the link names.`,
        { path, what },
      );
    case 'too-large':
      throw new InputFileError(
        'INPUT_TOO_LARGE',
        `The ${what} ${path} is ${read.size} bytes, over the ${limit}-byte limit. Trim it (keep the requests you need) or split it into several files.`,
        { path, what, size: read.size, limit },
      );
    case 'changed':
      throw new InputFileError(
        'INPUT_CHANGED',
        `The ${what} ${path} grew while it was read. Wait until whatever writes it is done, then run again.`,
        { path, what },
      );
  }
}

/** A system error (ENOENT, EACCES, ELOOP…) as a clear Tally error; anything else unchanged. */
export function asInputFileError(path: string, what: string, error: unknown): unknown {
  if (isTallyError(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return error;
  const reason = code === 'ENOENT' ? 'it does not exist' : `${code}`;
  return new InputFileError(
    code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE',
    `Cannot read the ${what} ${path}: ${reason}. Check the path and its permissions.`,
    { path, what, errno: code },
  );
}
