import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** `.NAME.tally-<12 hex>.tmp`: the temporary file of an atomic write of NAME. */
const TEMP_NAME = /^\.(.+)\.tally-[0-9a-f]{12}\.tmp$/;

/** A temporary file left by a killed write is older than any write in progress can be. */
export const STALE_TEMP_MS = 60_000;

export function tallyTempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.tally-${randomBytes(6).toString('hex')}.tmp`);
}

/** Tally's own in-flight (or orphaned) write: never shown by listings, searches or globs. */
export function isTallyTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Removes the orphaned temporary files of earlier writes of `target` (a write killed between
 * writing the temporary file and renaming it). Only Tally's own naming pattern, only regular
 * files, only those older than a minute: a concurrent write's file is never touched.
 */
export function reapStaleTempFiles(target: string, now = Date.now()): void {
  const directory = dirname(target);
  const name = basename(target);
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw error;
  }
  for (const candidate of names) {
    if (TEMP_NAME.exec(candidate)?.[1] !== name) continue;
    const path = join(directory, candidate);
    try {
      const stats = lstatSync(path);
      if (stats.isFile() && now - stats.mtimeMs > STALE_TEMP_MS) unlinkSync(path);
    } catch (error) {
      // Another writer reaped it first.
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
  }
}
