import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

export type RegularFileRead = { content: string; stats: Stats } | { notRegular: string };

/**
 * Reads a file only if, at the moment it is opened, it is a regular file and not a symlink.
 * Security: O_NOFOLLOW refuses a link swapped in after any earlier check; O_NONBLOCK makes
 * opening a FIFO return at once instead of waiting for a writer, and the fstat of the open
 * descriptor refuses FIFOs, sockets and devices before a single byte is read.
 */
export function readRegularFile(path: string): RegularFileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOOP') return { notRegular: 'a symbolic link' };
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      return {
        notRegular: stats.isFIFO()
          ? 'a FIFO'
          : stats.isSocket()
            ? 'a socket'
            : stats.isCharacterDevice() || stats.isBlockDevice()
              ? 'a device'
              : stats.isDirectory()
                ? 'a directory'
                : 'not a regular file',
      };
    return { content: readFileSync(fd, 'utf8'), stats };
  } finally {
    closeSync(fd);
  }
}
