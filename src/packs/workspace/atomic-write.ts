import { randomBytes } from 'node:crypto';
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PathOutsideProjectError } from './path-outside-project-error.js';
import { isInside, type ProjectRoot, type ResolvedPath } from './project-root.js';

export interface AtomicWriteHooks {
  /** Test seam: runs after the temporary file is written, before it is renamed into place. */
  beforeRename?: () => Promise<void>;
}

/**
 * Writes a file so a reader (or a crash) sees the old content or the new content, never a
 * mix: temporary file in the same directory, fsync, rename. The directory is checked again
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
  await mkdir(directory, { recursive: true });
  let mode = 0o644;
  try {
    mode = (await stat(target.absolute)).mode & 0o777;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const temporary = join(
    directory,
    `.${basename(target.absolute)}.tally-${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  const raceLost = async (resolved: string): Promise<never> => {
    await unlink(temporary).catch((error: { code?: string }) => {
      if (error.code !== 'ENOENT') throw error;
    });
    throw new PathOutsideProjectError(target.relative, resolved, 'race-detected', root.realRoot);
  };
  await hooks.beforeRename?.();
  const directoryNow = await realpath(directory);
  if (directoryNow !== directory || !isInside(root.realRoot, directoryNow)) await raceLost(directoryNow);
  await rename(temporary, target.absolute);
  const finalNow = await realpath(target.absolute);
  if (!isInside(root.realRoot, finalNow)) {
    await unlink(target.absolute);
    await raceLost(finalNow);
  }
}
