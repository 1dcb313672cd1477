import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** What stands at a path that is not a regular file. */
export type NotRegularKind =
  | 'a symbolic link'
  | 'a directory'
  | 'a FIFO'
  | 'a socket'
  | 'a device'
  | 'not a regular file';

/**
 * Why a path was not read. `absent`: nothing there. `not-regular`: a link, directory, FIFO,
 * socket or device (`kind` says which). `too-large`: over the caller's cap (`size`).
 * `changed`: it grew past its checked size while it was read (only with a cap). Callers map each to their own code and message.
 */
export type RegularFileRefusal =
  | { refused: 'absent' }
  /** `stats`: what the lstat or fstat saw; absent when the open itself met a link (O_NOFOLLOW). */
  | { refused: 'not-regular'; kind: NotRegularKind; stats?: Stats }
  | { refused: 'too-large'; size: number; limit: number }
  | { refused: 'changed' };

export type RegularFileRead = { text: string; stats: Stats } | RegularFileRefusal;
export type RegularFileOpen = { fd: number; stats: Stats } | RegularFileRefusal;
export type RegularFileHandle = { handle: FileHandle; stats: Stats } | RegularFileRefusal;

export interface RegularFileOptions {
  /** Refuse a file larger than this many bytes (default: no cap). */
  maxBytes?: number;
  /**
   * Also lstat before opening (default false). The descriptor's fstat decides either way;
   * the lstat only tells a symlink at the path from one swapped in during the open.
   */
  lstatFirst?: boolean;
}

/**
 * Security: O_NOFOLLOW refuses a symlink at the final component (one swapped in after any
 * earlier check included); O_NONBLOCK makes opening a FIFO return at once instead of waiting
 * for a writer. Both are absent on Windows.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

export function kindOf(stats: Stats): NotRegularKind | 'file' {
  if (stats.isFile()) return 'file';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function refusalOf(stats: Stats, maxBytes: number | undefined): RegularFileRefusal | undefined {
  const kind = kindOf(stats);
  if (kind !== 'file') return { refused: 'not-regular', kind, stats };
  if (maxBytes !== undefined && stats.size > maxBytes)
    return { refused: 'too-large', size: stats.size, limit: maxBytes };
  return undefined;
}

/** The open's failure as a refusal: ENOENT is absent, ELOOP (O_NOFOLLOW) a link; others are thrown. */
function openRefusal(error: unknown): RegularFileRefusal {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return { refused: 'absent' };
  if (code === 'ELOOP') return { refused: 'not-regular', kind: 'a symbolic link' };
  throw error;
}

function lstatRefusal(path: string, maxBytes: number | undefined): RegularFileRefusal | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  return stats ? refusalOf(stats, maxBytes) : { refused: 'absent' };
}

/**
 * Opens `path` for reading only if, on the descriptor that will be read, it is a regular
 * file within the cap: the fstat after the open closes the check-then-open race. The caller
 * closes `fd`. Errors other than absent or a link (EACCES, ENOTDIR…) are thrown unchanged.
 */
export function openRegularFileSync(path: string, options: RegularFileOptions = {}): RegularFileOpen {
  if (options.lstatFirst) {
    const early = lstatRefusal(path, options.maxBytes);
    if (early) return early;
  }
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    return openRefusal(error);
  }
  try {
    const stats = fstatSync(fd);
    const refusal = refusalOf(stats, options.maxBytes);
    if (!refusal) return { fd, stats };
    closeSync(fd);
    return refusal;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The same checks on a promise-based handle, for readers that stream. The caller closes `handle`. */
export async function openRegularFile(
  path: string,
  options: RegularFileOptions = {},
): Promise<RegularFileHandle> {
  // Loaded here, not at the top: node:fs/promises brings readline, fs watchers and stream
  // helpers (~3 ms), and the commands that only read whole files synchronously (`tally fish`
  // reading its captures) never stream one (issue 22).
  const { lstat, open } = await import('node:fs/promises');
  if (options.lstatFirst) {
    const stats = await lstat(path).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
      throw error;
    });
    const early = stats ? refusalOf(stats, options.maxBytes) : ({ refused: 'absent' } as const);
    if (early) return early;
  }
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    return openRefusal(error);
  }
  try {
    const stats = await handle.stat();
    const refusal = refusalOf(stats, options.maxBytes);
    if (!refusal) return { handle, stats };
    await handle.close();
    return refusal;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Reads a regular file as UTF-8 without trusting what is at its path: no link, FIFO, socket
 * or device is ever read, and never more than `maxBytes`. With a cap, one byte more than
 * fstat said is asked for, so a file that grew after the check is refused (`changed`)
 * instead of read past its cap.
 */
export function readRegularFileSync(path: string, options: RegularFileOptions = {}): RegularFileRead {
  const opened = openRegularFileSync(path, options);
  if ('refused' in opened) return opened;
  const { fd, stats } = opened;
  try {
    if (options.maxBytes === undefined) return { text: readToEnd(fd, stats.size), stats };
    const buffer = Buffer.alloc(stats.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > stats.size) return { refused: 'changed' };
    return { text: buffer.toString('utf8', 0, length), stats };
  } finally {
    closeSync(fd);
  }
}

/**
 * The rest of `fd` as UTF-8, however long it has grown: what `readFileSync(fd, 'utf8')`
 * returns, read into a buffer of the size fstat gave (one byte more, so that a file that did
 * not grow ends with one more read that returns 0) instead of Node's chunked reads and their
 * per-call option handling — an index build reads 50,000 small files this way.
 */
function readToEnd(fd: number, size: number): string {
  let buffer = Buffer.allocUnsafe(size + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) return buffer.toString('utf8', 0, length);
    length += read;
  }
}

/** An ENOENT error as Node throws it, for adapters whose callers catch that code. */
export function absentError(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), {
    code: 'ENOENT',
    errno: -2,
    syscall: 'open',
    path,
  });
}
