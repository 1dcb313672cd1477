import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { TallyError } from './errors.js';

/**
 * `mkdir -p` without Node's recursive mode, which loops forever where a file system answers
 * ENOENT for a parent that exists (`/proc`): each missing level is made once, top down, and
 * a level that cannot be made is a clear error.
 */
export function makeDirs(path: string, mode = 0o700): void {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      if (statSync(current).isDirectory()) break;
      throw new TallyError('NOT_A_DIRECTORY', `Cannot create ${path}: ${current} is not a directory.`, {
        path: current,
      });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
    const parent = dirname(current);
    if (parent === current) break;
    missing.unshift(current);
    current = parent;
  }
  for (const directory of missing) {
    try {
      mkdirSync(directory, { mode });
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST') continue;
      throw error;
    }
  }
}
