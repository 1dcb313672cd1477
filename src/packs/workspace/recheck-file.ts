import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EffectRechecker } from '../../core/recheck-effects.js';
import { isInside } from './project-root.js';

function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function bytesAt(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Re-checks files (space `file`, or `record` for the records pack) under `root`: a file the run
 * left must still hold the sha256 its evidence recorded; one it deleted must still be gone.
 */
export function fileRechecker(root: string, space = 'file', reads = false): EffectRechecker {
  const base = resolve(root);
  return {
    space,
    reads,
    recheck: async (net) => {
      const path = resolve(base, net.key);
      // The key comes from a ledger that may have been edited: never look outside the root.
      if (!isInside(base, path)) return { state: 'unchecked', what: `${net.key} is outside ${base}` };
      const bytes = await bytesAt(path);
      if (net.change === 'deleted')
        return bytes === undefined
          ? { state: 'unchanged', what: 'still gone' }
          : { state: 'drifted', what: `deleted by the run, but ${net.key} exists again` };
      if (bytes === undefined) return { state: 'drifted', what: `${net.key} is gone` };
      const recorded = net.observed.sha256;
      if (typeof recorded !== 'string')
        return { state: 'unchecked', what: 'the run recorded no sha256 for it' };
      const now = hashOf(bytes);
      return now === recorded
        ? { state: 'unchanged', what: `sha256 ${now.slice(0, 12)} as recorded` }
        : { state: 'drifted', what: `sha256 now ${now.slice(0, 12)}, the run left ${recorded.slice(0, 12)}` };
    },
  };
}
