import { closeSync, readFileSync, type Stats } from 'node:fs';
import { absentError, openRegularFileSync } from '../../core/io/read-regular-file.js';

export type RegularFileRead = { content: string; stats: Stats } | { notRegular: string };

/**
 * A record file, read only if it is a regular file and not a symlink (core's
 * `openRegularFileSync`: O_NOFOLLOW, then the descriptor's fstat decides); what is not regular
 * is named for the skip message. A missing file throws ENOENT, as the scan and `--cat` expect.
 * The open descriptor is read whole by `readFileSync(fd, 'utf8')`: on Node 20+ one native call
 * that reads to the end and decodes, where core's reader makes two `readSync` calls and a
 * buffer per file (~10 ms of the 2,000 reads of a first query, issue 22).
 */
/** One options object for every read: a string option is copied into a new object per call. */
const UTF8 = { encoding: 'utf8' } as const;

export function readRegularFile(path: string): RegularFileRead {
  const opened = openRegularFileSync(path);
  if ('fd' in opened) {
    try {
      return { content: readFileSync(opened.fd, UTF8), stats: opened.stats };
    } finally {
      closeSync(opened.fd);
    }
  }
  if (opened.refused === 'not-regular') return { notRegular: opened.kind };
  throw absentError(path);
}
