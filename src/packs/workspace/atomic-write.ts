import {
  closeSync,
  existsSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  unlinkSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { ToolRejectedError } from '../../core/errors.js';
import { openTempFile } from '../../core/io/atomic-write.js';
import { reapStaleTempFilesIn } from '../../core/io/temp-files.js';
import { fileKind } from './file-kind.js';
import { NotARegularFileError } from './not-a-regular-file-error.js';
import { PathOutsideProjectError } from './path-outside-project-error.js';
import { isInside, type ProjectRoot, type ResolvedPath } from './project-root.js';

export interface AtomicWriteHooks {
  /** Test seam: runs once the folders are made and checked, before the temporary file is created. */
  beforeTempFile?: () => Promise<void>;
  /** Test seam: runs after the temporary file is written, before it is renamed into place. */
  beforeRename?: () => Promise<void>;
  /** Test seam: runs once the file is renamed into place, before the result is checked. */
  afterRename?: () => Promise<void>;
  /** Test seam: runs once the change is on disk (renamed, moved, deleted), before the call's outcome is recorded. */
  afterChange?: () => Promise<void>;
}

/**
 * Told, once the new content is on disk under its temporary name, that the rename is next;
 * it records the intent (committed) and throws when it cannot, which cancels the write.
 */
export type BeforeRenameIntent = (temporary: string) => Promise<void>;

/**
 * What the caller already knows of the target: it has just opened it and its descriptor's
 * fstat found a regular file with this mode. The write then keeps that mode without another
 * lstat, and skips creating the directory the file sits in. A directory or FIFO swapped in
 * since is still never written through: the rename replaces the entry (or fails on a directory).
 */
export interface KnownTarget {
  mode: number;
}

/**
 * How often one directory is scanned for orphaned temporary files. The scan is a readdir of
 * the whole directory — linear in its size, on every write it cost more than the write itself
 * in a large folder — and orphans are rare: a write killed between its temporary file and the
 * rename. Those of earlier processes are removed by the start-up sweep, the rest by the first
 * write in their directory and then at most this long later; a listing never shows them.
 */
export const REAP_INTERVAL_MS = 10_000;
/** Directories scanned recently, with when; bounded, so a long session writing everywhere stays small. */
const reapedAt = new Map<string, number>();
const REAPED_DIRECTORIES = 4096;

function reapOrphansNear(directory: string): void {
  const now = performance.now();
  const last = reapedAt.get(directory);
  if (last !== undefined && now - last < REAP_INTERVAL_MS) return;
  if (reapedAt.size >= REAPED_DIRECTORIES) reapedAt.clear();
  reapStaleTempFilesIn(directory);
  reapedAt.set(directory, now);
}

/**
 * Creates the folders missing above a new file one at a time, each checked right after it is
 * made: a folder swapped for a link to outside the project meanwhile would carry
 * `mkdir -p` out of it. A folder made outside that way is removed again (it is empty) and the
 * write refused.
 */
function makeDirectoriesInside(
  root: ProjectRoot,
  directory: string,
  unmoved: Unmoved,
  inFolder: InFolder,
): void {
  const missing: string[] = [];
  for (
    let at = directory;
    !existsSync(at) && isInside(root.realRoot, at) && at !== dirname(at);
    at = dirname(at)
  )
    missing.unshift(at);
  unmoved(missing.length > 0 ? dirname(missing[0] as string) : directory);
  for (const folder of missing) {
    try {
      inFolder(dirname(folder), () => mkdirSync(folder));
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
    unmoved(folder, (made) => {
      try {
        rmdirSync(made);
      } catch {
        // Not empty (not ours) or gone: left as it is.
      }
    });
  }
}

/**
 * Throws `race-detected` when `folder` (a real path inside the root) no longer resolves to
 * itself — a link swapped in on the way, or the folder gone — after `undo` has had the place
 * it resolves to now (when it still resolves).
 */
type Unmoved = (folder: string, undo?: (now: string) => void) => void;

/**
 * Runs a step on an entry of `folder` (mkdir, open, rename, realpath). Its ENOENT or ENOTDIR is
 * the race refusal when `folder` no longer resolves to itself: the folder vanished or was
 * swapped mid-step (a link to a missing place, or the instant between the move and the link).
 * When the folder is where it was, the error is the step's own and is thrown as it is.
 */
type InFolder = <T>(folder: string, step: () => T) => T;

/** Errors a path step meets when a folder on its way vanished or stopped being a folder. */
const VANISHED = new Set(['ENOENT', 'ENOTDIR']);

/** `folder`'s real path, or undefined when it no longer resolves (gone, or not a folder on the way). */
function resolvesTo(folder: string): string | undefined {
  try {
    return realpathSync.native(folder);
  } catch (error) {
    if (VANISHED.has((error as { code?: string }).code ?? '')) return undefined;
    throw error;
  }
}

/**
 * Removes a refused write's (emptied) temporary file by its path. A folder on the way that
 * vanished or became a link to a file (ENOTDIR) means the path no longer reaches it: nothing
 * to remove there, and the refusal, not this, is what the caller hears.
 */
function removeTemporary(temporary: string): void {
  try {
    unlinkSync(temporary);
  } catch (error) {
    if (!VANISHED.has((error as { code?: string }).code ?? '')) throw error;
  }
}

/** The mode of the file being replaced (kept across the write); refuses what is not a file. */
function existingMode(target: ResolvedPath): number | undefined {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(target.absolute);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  const kind = fileKind(stats);
  if (kind === 'directory')
    throw new ToolRejectedError(
      'IS_A_DIRECTORY',
      `${target.relative === '.' ? 'The project root' : target.relative} is a directory: write to a file path inside it (for example ${target.relative === '.' ? '' : `${target.relative}/`}notes.md).`,
      { path: target.relative },
    );
  if (kind !== 'file') throw new NotARegularFileError(target.relative, kind);
  return stats.mode & 0o777;
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
  intend?: BeforeRenameIntent,
  known?: KnownTarget,
): Promise<void> {
  // Before anything touches the disk: a directory (the root included) or a FIFO is never replaced.
  const mode = known ? known.mode : (existingMode(target) ?? 0o644);
  const directory = dirname(target.absolute);
  // Security: the temporary file lives next to the target, so that directory must be inside the root.
  if (!isInside(root.realRoot, directory))
    throw new PathOutsideProjectError(target.relative, directory, 'project-root', root.realRoot);
  const unmoved: Unmoved = (folder, undo) => {
    const now = resolvesTo(folder);
    if (now === folder) return;
    if (now !== undefined) undo?.(now);
    throw new PathOutsideProjectError(target.relative, now ?? folder, 'race-detected', root.realRoot);
  };
  const inFolder: InFolder = (folder, step) => {
    try {
      return step();
    } catch (error) {
      if (VANISHED.has((error as { code?: string }).code ?? '')) unmoved(folder);
      throw error;
    }
  };
  if (!known) makeDirectoriesInside(root, directory, unmoved, inFolder);
  else unmoved(directory);
  await hooks.beforeTempFile?.();
  inFolder(directory, () => reapOrphansNear(directory));
  // The temporary file: O_EXCL, a crypto-random name with the pid (reapable). No fsync: rename
  // gives all-or-nothing against a crashed or killed process (tested with kill -9); durability
  // across power loss is the filesystem's, as for most editors and the official MCP filesystem
  // server — an fsync cost ~4.8 ms a write here. Tally's own state files do fsync. Its
  // descriptor stays open until the rename: a refused write empties the file through it, so a
  // folder swapped for a link meanwhile keeps no copy of the content wherever the file landed.
  const { path: temporary, descriptor } = inFolder(directory, () =>
    openTempFile(target.absolute, data, mode, { durable: false }),
  );
  let renamed = false;
  try {
    // Intent before rename: a kill after the rename leaves a committed intent, never a
    // changed file the ledger knows nothing of.
    await intend?.(temporary);
    await hooks.beforeRename?.();
    // `directory` is inside the root (checked above): resolving to itself, it still is.
    unmoved(directory);
    inFolder(directory, () => renameSync(temporary, target.absolute));
    renamed = true;
  } finally {
    // A refused or failed rename (a directory created at the target meanwhile) leaves no
    // temporary file, and no content in one that could not be found again.
    if (!renamed) ftruncateSync(descriptor, 0);
    closeSync(descriptor);
    if (!renamed) removeTemporary(temporary);
  }
  await hooks.afterRename?.();
  const finalNow = inFolder(directory, () => realpathSync.native(target.absolute));
  if (!isInside(root.realRoot, finalNow)) {
    unlinkSync(target.absolute);
    throw new PathOutsideProjectError(target.relative, finalNow, 'race-detected', root.realRoot);
  }
  await hooks.afterChange?.();
}
