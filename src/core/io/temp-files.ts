import { randomBytes } from 'node:crypto';
import { type Dirent, lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';

/**
 * `.NAME.tally-<pid>-<12 hex>.tmp`: the temporary file of an atomic write of NAME by process
 * <pid>. Names without the pid (`.NAME.tally-<12 hex>.tmp`) are those of older versions.
 */
const TEMP_NAME = /^\.(.+)\.tally-(?:([1-9][0-9]{0,9})-)?[0-9a-f]{12}\.tmp$/;

/** A temporary file left by a killed write is older than any write in progress can be. */
export const STALE_TEMP_MS = 60_000;

/** Directories the start-up sweep never enters: not the project's files, and often huge. */
const SWEEP_SKIPS = new Set(['.git', 'node_modules']);

/** The start-up sweep stops after this many directory entries (a home folder as the root). */
export const SWEEP_MAX_ENTRIES = 200_000;

export function tallyTempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${basename(target)}.tally-${process.pid}-${randomBytes(6).toString('hex')}.tmp`,
  );
}

/** Tally's own in-flight (or orphaned) write: never shown by listings, searches or globs. */
export function isTallyTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** Whether the process that wrote a temporary file is certainly gone (no such pid). */
function ownerGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: alive, someone else's. Only ESRCH says nobody has that pid.
    return (error as { code?: string }).code === 'ESRCH';
  }
}

/**
 * An orphan: the writer is gone, or the file is older than any write in progress can be. A
 * pid reused by another process keeps its file until it is a minute old; the worst a wrong
 * answer does (a writer in another pid namespace sharing the folder) is fail that write's
 * rename with ENOENT — never remove or change a project file.
 */
function isOrphan(name: string, path: string, now: number): boolean {
  const match = TEMP_NAME.exec(name);
  if (!match) return false;
  const stats = lstatSync(path);
  if (!stats.isFile()) return false;
  return now - stats.mtimeMs > STALE_TEMP_MS || (match[2] !== undefined && ownerGone(Number(match[2])));
}

function removeOrphan(name: string, path: string, now: number): boolean {
  try {
    if (!isOrphan(name, path, now)) return false;
    unlinkSync(path);
    return true;
  } catch (error) {
    // Another writer (or sweep) reaped it first.
    if ((error as { code?: string }).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Removes the orphaned temporary files of earlier writes of `target` (a write killed between
 * writing the temporary file and renaming it). Only Tally's own naming pattern, only regular
 * files, only orphans: a concurrent write's file is never touched.
 */
export function reapStaleTempFiles(target: string, now = Date.now()): void {
  const name = basename(target);
  reapIn(dirname(target), (owner) => owner === name, now);
}

/**
 * Removes the orphaned temporary files of every target in `directory` (the rule of
 * `reapStaleTempFiles` and the start-up sweep): for writers that scan a directory only now
 * and then rather than on every write.
 */
export function reapStaleTempFilesIn(directory: string, now = Date.now()): void {
  reapIn(directory, () => true, now);
}

/** Orphaned temporary files in `directory` whose target's name `owns` accepts, removed. */
function reapIn(directory: string, owns: (target: string) => boolean, now: number): void {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw error;
  }
  for (const candidate of names) {
    const target = TEMP_NAME.exec(candidate)?.[1];
    if (target !== undefined && owns(target)) removeOrphan(candidate, join(directory, candidate), now);
  }
}

export interface SweepResult {
  /** Removed temporary files, relative to the root. */
  removed: string[];
  /** The entry cap was reached: the rest of the tree is left to the per-file reap of later writes. */
  truncated: boolean;
}

/**
 * The start-up sweep (run by whoever serves a tree, when it starts): removes the orphaned
 * temporary files of writes killed before their rename anywhere under the root, so none
 * waits for a later write of the same file. Never follows a symlink, never enters `.git`,
 * `node_modules` or a protected location, never touches a name outside Tally's pattern.
 */
export function sweepOrphanedTempFiles(
  realRoot: string,
  options: { exclude?: readonly string[]; now?: number; maxEntries?: number } = {},
): SweepResult {
  const now = options.now ?? Date.now();
  const maxEntries = options.maxEntries ?? SWEEP_MAX_ENTRIES;
  const exclude = options.exclude ?? [];
  const removed: string[] = [];
  const queue = [realRoot];
  let seen = 0;
  while (queue.length > 0) {
    const directory = queue.shift() as string;
    let dirents: Dirent[];
    try {
      dirents = readdirSync(directory, { withFileTypes: true });
    } catch {
      // Unreadable or gone meanwhile: nothing of ours can be removed there anyway.
      continue;
    }
    for (const dirent of dirents) {
      if (++seen > maxEntries) return { removed, truncated: true };
      const path = join(directory, dirent.name);
      if (dirent.isDirectory()) {
        if (!SWEEP_SKIPS.has(dirent.name) && !exclude.some((location) => isUnder(location, path)))
          queue.push(path);
      } else if (dirent.isFile() && removeOrphan(dirent.name, path, now))
        removed.push(relative(realRoot, path).split(sep).join('/'));
    }
  }
  return { removed, truncated: false };
}

function isUnder(location: string, path: string): boolean {
  return path === location || path.startsWith(`${location}${sep}`);
}
