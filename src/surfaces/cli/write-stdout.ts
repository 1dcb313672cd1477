import { writeSync } from 'node:fs';
import { noteStdoutFailure } from './standard-streams.js';

/**
 * A writer to stdout. A short command's output goes straight to file descriptor 1: creating
 * `process.stdout` loads node:stream, and node:net for a pipe — 7–15 ms of a ~100 ms one-shot
 * `tally records query` (its CPU profile, issue 22). The write is synchronous, as Node's own is
 * for files and (on Linux) pipes. A descriptor in non-blocking mode that is full (EAGAIN) hands
 * the rest to `process.stdout`, which waits for the reader, and so does everything written
 * after it. A reader that went away (EPIPE, `| head`) ends the output quietly, as a shell tool's.
 * Windows, where console and pipe writes differ, always uses `process.stdout`.
 */
export function stdoutWriter(): (output: string | Uint8Array) => void {
  /** Set once `process.stdout` carries output: from then on everything goes through it, in order. */
  let throughStream = false;
  /** Set when the reader went away (EPIPE): the rest of the output has nowhere to go. */
  let readerGone = false;
  return (output) => {
    if (readerGone || output.length === 0) return;
    if (throughStream || process.platform === 'win32') {
      process.stdout.write(output);
      return;
    }
    // Bytes (a resident server's answer) are written as they are, never decoded first.
    const bytes = typeof output === 'string' ? Buffer.from(output, 'utf8') : output;
    let offset = 0;
    try {
      while (offset < bytes.length) offset += writeSync(1, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN') {
        // EPIPE: the reader went away; anything else (ENOSPC, EIO) is said once at the end.
        readerGone = true;
        noteStdoutFailure(error as NodeJS.ErrnoException);
        return;
      }
      throughStream = true;
      process.stdout.write(bytes.subarray(offset));
    }
  };
}

/**
 * The process's stdout writer: descriptor 1 is the process's, so everything the CLI writes to it
 * directly goes through this one writer, in order.
 */
export const writeStdout = stdoutWriter();
