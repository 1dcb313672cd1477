import { randomBytes } from 'node:crypto';
import { mkdirSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PathOutsideProjectError } from './path-outside-project-error.js';
import { isInside, type ProjectRoot, type ResolvedPath } from './project-root.js';

export interface AtomicWriteHooks {
  /** Test seam: runs after the temporary file is written, before it is renamed into place. */
  beforeRename?: () => Promise<void>;
}

/**
 * Writes a file so a reader (or a killed process) sees the old content or the new content,
 * never a mix: temporary file in the same directory, then rename. The directory is checked again
 * just before the rename, and the result just after, so a symlink swapped in meanwhile
 * cannot carry the write out of the project.
 */
export async function writeFileAtomic(
  root: ProjectRoot,
  target: ResolvedPath,
  data: Buffer | string,
  hooks: AtomicWriteHooks = {},
): Promise<void> {
  const directory = dirname(target.absolute);
  mkdirSync(directory, { recursive: true });
  let mode = 0o644;
  try {
    mode = statSync(target.absolute).mode & 0o777;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const temporary = join(
    directory,
    `.${basename(target.absolute)}.tally-${randomBytes(6).toString('hex')}.tmp`,
  );
  // No fsync: rename gives all-or-nothing against a crashed or killed process (tested with
  // kill -9); durability across power loss is the filesystem's, as for most editors.
  writeFileSync(temporary, data, { flag: 'wx', mode });
  const raceLost = async (resolved: string): Promise<never> => {
    try {
      unlinkSync(temporary);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
    throw new PathOutsideProjectError(target.relative, resolved, 'race-detected', root.realRoot);
  };
  await hooks.beforeRename?.();
  const directoryNow = realpathSync.native(directory);
  if (directoryNow !== directory || !isInside(root.realRoot, directoryNow)) await raceLost(directoryNow);
  renameSync(temporary, target.absolute);
  const finalNow = realpathSync.native(target.absolute);
  if (!isInside(root.realRoot, finalNow)) {
    unlinkSync(target.absolute);
    await raceLost(finalNow);
  }
}
