import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { TallyError } from '../../../core/errors.js';

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

function refuseUnlessRegular(path: string, what: string, stats: Stats, limit: number): void {
  // Security: a FIFO blocks open/read forever and a device (`/dev/zero`) reads without end;
  // either would freeze the process or exhaust memory, so only regular files are read.
  if (!stats.isFile())
    throw new InputFileError(
      'INPUT_NOT_REGULAR_FILE',
      `The ${what} ${path} is ${describeKind(stats)}, not a regular file. Point it at a regular file.`,
      { path, what },
    );
  if (stats.size > limit)
    throw new InputFileError(
      'INPUT_TOO_LARGE',
      `The ${what} ${path} is ${stats.size} bytes, over the ${limit}-byte limit. Trim it (keep the requests you need) or split it into several files.`,
      { path, what, size: stats.size, limit },
    );
}

/**
 * Reads a regular file as UTF-8, at most `limit` bytes. The type and size are checked with
 * stat BEFORE opening, and again on the open descriptor (opened non-blocking, so a file
 * swapped for a FIFO in between cannot block the open): no read can block or run unbounded.
 */
export function readRegularFile(path: string, what: string, limit: number): string {
  try {
    refuseUnlessRegular(path, what, statSync(path), limit);
    return readOpened(path, what, limit, openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
  } catch (error) {
    throw asInputFileError(path, what, error);
  }
}

/** A system error (ENOENT, EACCES, ELOOP…) as a clear Tally error; anything else unchanged. */
export function asInputFileError(path: string, what: string, error: unknown): unknown {
  if (error instanceof TallyError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return error;
  const reason = code === 'ENOENT' ? 'it does not exist' : `${code}`;
  return new InputFileError(
    code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE',
    `Cannot read the ${what} ${path}: ${reason}. Check the path and its permissions.`,
    { path, what, errno: code },
  );
}

function readOpened(path: string, what: string, limit: number, descriptor: number): string {
  try {
    const stats = fstatSync(descriptor);
    refuseUnlessRegular(path, what, stats, limit);
    // One byte more than stat said tells a file that grew after the stat from one that did not.
    const buffer = Buffer.alloc(stats.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > stats.size)
      throw new InputFileError(
        'INPUT_CHANGED',
        `The ${what} ${path} grew while it was read. Wait until whatever writes it is done, then run again.`,
        { path, what },
      );
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(descriptor);
  }
}
