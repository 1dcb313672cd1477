import type { Stats } from 'node:fs';
import { absentError, readRegularFileSync } from '../../core/io/read-regular-file.js';

export type RegularFileRead = { content: string; stats: Stats } | { notRegular: string };

/**
 * A record file, read only if it is a regular file and not a symlink (the checks are core's
 * `readRegularFileSync`); what is not regular is named for the skip message. A missing file
 * throws ENOENT, as the scan and `--cat` expect.
 */
export function readRegularFile(path: string): RegularFileRead {
  const read = readRegularFileSync(path);
  if ('text' in read) return { content: read.text, stats: read.stats };
  if (read.refused === 'not-regular') return { notRegular: read.kind };
  throw absentError(path);
}
