import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/** What reading one of Tally's own state files found. */
export type OwnFileRead =
  | { text: string }
  | { absent: true }
  | { refused: 'a symbolic link' | 'not a regular file' | 'too large' };

/**
 * Reads a state file Tally wrote (a chat, a recipe) without trusting what is at its path now.
 * Security: O_NOFOLLOW refuses a planted symlink, O_NONBLOCK makes a planted FIFO return at
 * once instead of waiting for a writer, and the fstat of the open descriptor refuses anything
 * that is not a regular file (or is over `maxBytes`) before a byte is read. Callers turn each
 * outcome into their own error.
 */
export function readOwnFile(path: string, maxBytes = Number.POSITIVE_INFINITY): OwnFileRead {
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return { absent: true };
    if (code === 'ELOOP') return { refused: 'a symbolic link' };
    throw error;
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return { refused: 'not a regular file' };
    if (stats.size > maxBytes) return { refused: 'too large' };
    return { text: readFileSync(descriptor, 'utf8') };
  } finally {
    closeSync(descriptor);
  }
}
