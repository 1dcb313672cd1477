import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  type Stats,
  statSync,
} from 'node:fs';
import { dirname, isAbsolute } from 'node:path';

/** Longest path Tally will touch; Linux's PATH_MAX. Longer ones fail with ENAMETOOLONG anyway. */
export const MAX_STATE_PATH = 4096;

export type StateDir = { dir: string; dev: number; ino: number };
/**
 * Why a private directory was refused. `refused` is the fail-open reason a hook records;
 * `reason` says what was found, for callers that map it to their own codes: `unusable` (the
 * path string), `absent` (missing, not created), `parent-missing`, `link` (the directory or,
 * with realParent, its parent), `not-directory`, `foreign` (another user's), `changed`
 * (swapped while checked), `mode` (chmod did not hold), `errno` (the system refused).
 */
export type StateDirRefusal = {
  refused: 'store-unwritable' | 'state-dir-unowned';
  reason:
    | 'unusable'
    | 'absent'
    | 'parent-missing'
    | 'link'
    | 'not-directory'
    | 'foreign'
    | 'changed'
    | 'mode'
    | 'errno';
  why: string;
};

/** Why a string cannot be a state path, or undefined when it can. */
export function unusablePath(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') return 'it is empty or not a string';
  if (path.includes('\0')) return 'it contains a NUL byte';
  if (path.length > MAX_STATE_PATH) return `it is longer than ${MAX_STATE_PATH} characters`;
  if (!isAbsolute(path)) return 'it is not absolute';
  return undefined;
}

const errorCode = (error: unknown) => (error as { code?: unknown }).code;

/** `stat` that answers undefined for any path the system cannot stat (missing, ENOTDIR, EACCES…). */
export function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (typeof errorCode(error) === 'string') return undefined;
    throw error;
  }
}

/**
 * Opens a state directory (`.tally`, a folder inside it, the user-level state folder) without
 * following symlinks. With `create`, one missing level is made under an existing parent —
 * never `mkdir -p`, which Node runs forever where mkdir answers ENOENT for a parent that
 * exists (`/proc`). The directory must be a real directory owned by this user; with `mode`
 * it is fchmod-ed through a descriptor opened with O_NOFOLLOW, so a link is never chmod-ed.
 */
export function secureStateDir(
  path: string,
  options: { create: boolean; mode?: number; realParent?: boolean },
): StateDir | StateDirRefusal {
  const unusable = unusablePath(path);
  if (unusable)
    return {
      refused: 'store-unwritable',
      reason: 'unusable',
      why: `the state path is unusable: ${unusable}`,
    };
  try {
    // Security: `.tally/<state>` under a symlinked `.tally` is as foreign as a symlinked `<state>`.
    if (options.realParent && lstatSync(dirname(path), { throwIfNoEntry: false })?.isSymbolicLink())
      return {
        refused: 'store-unwritable',
        reason: 'link',
        why: `${dirname(path)} is a symbolic link; Tally does not follow links for its state. Replace it with a real directory.`,
      };
    let stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats) {
      if (!options.create)
        return {
          refused: 'state-dir-unowned',
          reason: 'absent',
          why: `${path} does not exist and Tally does not own its parent`,
        };
      const parent = statSync(dirname(path), { throwIfNoEntry: false });
      if (!parent?.isDirectory())
        return {
          refused: 'store-unwritable',
          reason: 'parent-missing',
          why: `${dirname(path)} is not an existing directory`,
        };
      try {
        mkdirSync(path, { mode: options.mode ?? 0o700 });
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error; // another writer made it first: check it below
      }
      stats = lstatSync(path);
    }
    // Security: a symlinked state directory would send writes, chmods and reaping elsewhere.
    if (stats.isSymbolicLink())
      return {
        refused: 'store-unwritable',
        reason: 'link',
        why: `${path} is a symbolic link; Tally does not follow links for its state. Replace it with a real directory.`,
      };
    if (!stats.isDirectory())
      return { refused: 'store-unwritable', reason: 'not-directory', why: `${path} is not a directory` };
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid)
      return {
        refused: 'store-unwritable',
        reason: 'foreign',
        why: `${path} is owned by uid ${stats.uid}, not this user (${uid})`,
      };
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    try {
      const opened = fstatSync(fd);
      if (opened.dev !== stats.dev || opened.ino !== stats.ino)
        return {
          refused: 'store-unwritable',
          reason: 'changed',
          why: `${path} changed while it was being checked`,
        };
      if (options.mode !== undefined && (opened.mode & 0o777) !== options.mode) {
        fchmodSync(fd, options.mode);
        const mode = fstatSync(fd).mode & 0o777;
        if (mode !== options.mode)
          return {
            refused: 'store-unwritable',
            reason: 'mode',
            why: `${path} is mode ${mode.toString(8)}, not ${options.mode.toString(8)}`,
          };
      }
      return { dir: path, dev: opened.dev, ino: opened.ino };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = errorCode(error);
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
      return { refused: 'store-unwritable', reason: 'errno', why: `${path}: ${(error as Error).message}` };
    throw error;
  }
}

/** True while `dir` is still the directory `secureStateDir` checked (not swapped for a link). */
export function isSameStateDir(state: StateDir): boolean {
  const stats = lstatSync(state.dir, { throwIfNoEntry: false });
  return Boolean(stats?.isDirectory() && stats.dev === state.dev && stats.ino === state.ino);
}

/**
 * Makes `path` when it is missing and its parent is a directory: one level, never `mkdir -p`.
 * For the user's own ancestors of a state folder (`~/.cache`, `~/.local/state`), which may
 * be links the user made: those are followed; the state folder itself goes through
 * `secureStateDir`. False when the parent is not a directory.
 */
export function ensureDirLevel(path: string, mode = 0o700): boolean {
  if (statIfAny(path)?.isDirectory()) return true;
  if (!statIfAny(dirname(path))?.isDirectory()) return false;
  try {
    mkdirSync(path, { mode });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  return statSync(path).isDirectory();
}
