import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runTally, type TallyRun, tempDir } from '../../helpers.js';

export const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'records');

/** A private copy of the committed corpus. */
export function corpus(): string {
  const root = join(tempDir('tally-records-'), 'corpus');
  cpSync(FIXTURE, root, { recursive: true, filter: (source) => !source.includes('/.tally') });
  return root;
}

// One cache folder per test file (indexes are keyed by root, so tests never share one), so no
// test writes into the real ~/.cache.
const cache = mkdtempSync(join(tmpdir(), 'tally-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** The built CLI with the index cache in this file's temp folder. */
export function tally(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<TallyRun> {
  return runTally(args, { ...options, env: { XDG_CACHE_HOME: cache, ...options.env } });
}

export const CACHE = cache;
