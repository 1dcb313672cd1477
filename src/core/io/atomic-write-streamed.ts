import { closeSync, fsyncSync, lstatSync, openSync } from 'node:fs';
import { publishTempFile, removeIfPresent, writeAllSync } from './atomic-write.js';
import { reapStaleTempFiles, tallyTempPathFor } from './temp-files.js';

/** Appends a chunk to the temporary file (UTF-8 for a string). */
export type WriteChunk = (chunk: Buffer | string) => void;

export interface StreamedAtomicWriteOptions {
  /** The new file's mode (default 0600: Tally's state is private). */
  mode?: number;
  /** fsync before the rename (default true), so the rename publishes content that is on disk. */
  durable?: boolean;
}

/**
 * `writeFileAtomicSync` for content made a piece at a time (a report streamed from a run of
 * any length): the temporary file beside `target` (crypto-random name with the pid, so the
 * reaper knows it; O_EXCL, never through a planted link) is opened before `produce` runs, so
 * a folder that does not exist fails before any work, and so does a target that is a folder
 * (the rename would fail only after all of it: EISDIR, `path: target`). Each chunk is written as it comes; once
 * `produce` settles the file is fsync-ed and renamed over `target`. Any throw — opening,
 * `produce`, a write, the fsync, the rename — removes the temporary file and leaves `target`
 * as it was. An open failure carries `path: target`: the temporary name means nothing to a user.
 */
export async function writeFileAtomicStreamed(
  target: string,
  produce: (write: WriteChunk) => Promise<void> | void,
  options: StreamedAtomicWriteOptions = {},
): Promise<void> {
  if (lstatSync(target, { throwIfNoEntry: false })?.isDirectory())
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${target}'`), {
      code: 'EISDIR',
      syscall: 'open',
      path: target,
    });
  reapStaleTempFiles(target);
  const temporary = tallyTempPathFor(target);
  let descriptor: number;
  try {
    descriptor = openSync(temporary, 'wx', options.mode ?? 0o600);
  } catch (error) {
    throw Object.assign(error as Error, { path: target });
  }
  try {
    await produce((chunk) => writeAllSync(descriptor, chunk));
    if (options.durable ?? true) fsyncSync(descriptor);
  } catch (error) {
    closeAfterFailure(descriptor);
    removeIfPresent(temporary);
    throw error;
  }
  publishTempFile(temporary, target, () => closeSync(descriptor));
}

/** What close(2) may report of writes deferred until then: after a failed write, no news. */
const CLOSE_AFTER_FAILURE = new Set(['EIO', 'ENOSPC', 'EDQUOT', 'EBADF']);

/** Closes after a failed write, whose own error is the one rethrown. */
function closeAfterFailure(descriptor: number): void {
  try {
    closeSync(descriptor);
  } catch (error) {
    if (!CLOSE_AFTER_FAILURE.has((error as { code?: string }).code ?? '')) throw error;
  }
}
