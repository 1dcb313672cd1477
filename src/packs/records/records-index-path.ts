import { readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ensureDirLevel, secureStateDir, unusablePath } from '../../core/io/private-dir.js';
import { pathKey } from './path-key.js';
import { RecordsUnavailableError } from './records-error.js';

/** Bumped with every change of the index layout: a new layout never reads an old file. */
export const INDEX_VERSION = '10';

export type RecordsIndexLocation = { path: string; cacheDir?: string };

/**
 * Where the index of `root` lives: `--index PATH`, else TALLY_RECORDS_INDEX, else
 * `$XDG_CACHE_HOME/tally/records/<key of the real root>/index-vN.db` (`~/.cache` without
 * XDG_CACHE_HOME). A query never writes into the records folder, and two roots never share
 * an index; the same folder reached through a link shares one.
 */
export function recordsIndexPath(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
  explicit?: string,
): RecordsIndexLocation {
  const given = explicit ?? (env.TALLY_RECORDS_INDEX || undefined);
  if (given !== undefined) return { path: resolve(given) };
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  const home = env.HOME && isAbsolute(env.HOME) ? join(env.HOME, '.cache') : undefined;
  const cache = base ?? home;
  if (!cache)
    throw new RecordsUnavailableError(
      'INDEX_UNAVAILABLE',
      'No on-disk index: neither XDG_CACHE_HOME nor HOME is an absolute path. Set XDG_CACHE_HOME, or pass --index PATH.',
      {},
    );
  const key = pathKey(realpathSync.native(root));
  const cacheDir = join(cache, 'tally', 'records', key);
  return { path: join(cacheDir, `index-v${INDEX_VERSION}.db`), cacheDir };
}

/** Makes a missing level whose parent is a directory (core's one-level rule), else INDEX_UNAVAILABLE. */
function ensureLevel(path: string): void {
  if (!ensureDirLevel(path))
    throw new RecordsUnavailableError(
      'INDEX_UNAVAILABLE',
      `No on-disk index: ${dirname(path)} is not a directory. Set XDG_CACHE_HOME to a folder of yours, or pass --index PATH.`,
      { dir: path },
    );
}

/**
 * Makes the index folder. The cache base (`~/.cache`) is the user's and may be a link; below
 * it, `tally`, `records` and the root's folder are made one level at a time, each a real 0700
 * directory of this user (core/io/private-dir rules: a symlink is refused, never followed).
 * An explicit index path's folder is made when only that one level is missing.
 */
export function ensureRecordsIndexDir(location: RecordsIndexLocation): void {
  const refuse = (why: string, dir: string) =>
    new RecordsUnavailableError(
      'INDEX_UNAVAILABLE',
      `No on-disk index: ${why}. Remove it, or pass --index PATH.`,
      { dir },
    );
  if (!location.cacheDir) {
    // A path the user named: its folder is made if only that one level is missing.
    try {
      ensureLevel(dirname(location.path));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || code === 'INDEX_UNAVAILABLE') throw error;
      throw refuse(`${dirname(location.path)} cannot be made (${code})`, dirname(location.path));
    }
    return;
  }
  const unusable = unusablePath(location.cacheDir);
  if (unusable) throw refuse(`the cache path is unusable: ${unusable}`, location.cacheDir);
  const tally = dirname(dirname(location.cacheDir));
  try {
    ensureLevel(dirname(tally));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || code === 'INDEX_UNAVAILABLE') throw error;
    throw refuse(`${dirname(tally)} cannot be made (${code})`, dirname(tally));
  }
  for (const dir of [tally, dirname(location.cacheDir), location.cacheDir]) {
    const state = secureStateDir(dir, { create: true, mode: 0o700 });
    if ('refused' in state) throw refuse(state.why, dir);
  }
}

/**
 * Deletes the indexes older layouts left in the root's cache folder (`index-v8.db` and its
 * journal, after an upgrade to v9): a cache no version reads again, up to hundreds of MB at
 * 500,000 records. Called when this version's index is first made there; a newer version's
 * file is never touched, and a path the user named (no cache folder) is left alone.
 */
export function removeOlderIndexes(location: RecordsIndexLocation): void {
  if (!location.cacheDir) return;
  let names: string[];
  try {
    names = readdirSync(location.cacheDir);
  } catch {
    return;
  }
  for (const name of names) {
    const version = /^index-v(\d+)\.db(?:-journal|-wal|-shm)?$/.exec(name)?.[1];
    if (version !== undefined && Number(version) < Number(INDEX_VERSION))
      rmSync(join(location.cacheDir, name), { force: true });
  }
}
