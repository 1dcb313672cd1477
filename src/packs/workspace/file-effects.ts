import { createHash } from 'node:crypto';
import { closeSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { ClaimResolver } from '../../core/agent/claims.js';
import type { Effect, EffectKind } from '../../core/effects.js';
import { openRegularFileSync, type RegularFileOpen } from '../../core/io/read-regular-file.js';
import { type FileEvidence, hashDescriptor } from './file-evidence.js';
import { openRegularFile } from './open-regular-file.js';
import type { ProjectRoot } from './project-root.js';
import { walkFiles } from './walk-files.js';

/** Content claims read at most this much of a file. */
const INSPECT_LIMIT = 16 * 1024 * 1024;
/** A directory delete or move reports at most this many files. */
const TREE_EFFECTS = 2000;

/** A file about to be replaced or removed is hashed up to this size; above it, bytes only. */
const PRIOR_HASH_LIMIT = 16 * 1024 * 1024;

/**
 * What a path held just before a call changed it: `null` when nothing was there, bytes and
 * sha256 of a regular file, bytes alone for a file too large to hash (its content is then
 * unknown). Recorded as `observed.before` on every write effect, so a turn's changes can be
 * judged by content: the first `before` of a path against its last observation.
 */
export type PriorState = FileEvidence | { bytes: number } | null;

/**
 * The state of a path before a write, delete or move; undefined when it cannot be told (not
 * a regular file, unreadable) — the tool's own checks then refuse or go ahead as before.
 */
export async function priorState(absolute: string): Promise<PriorState | undefined> {
  return (await priorFile(absolute)).state;
}

/**
 * The same, and the mode of a regular file found there (what a write that replaces it keeps,
 * so the write need not stat the path again). One lstat (a FIFO or device is never opened),
 * then the no-follow, non-blocking open and the descriptor's fstat decide.
 */
export async function priorFile(absolute: string): Promise<{ state: PriorState | undefined; mode?: number }> {
  let opened: RegularFileOpen;
  try {
    opened = openRegularFileSync(absolute, { lstatFirst: true, maxBytes: PRIOR_HASH_LIMIT });
  } catch {
    // Unreadable (EACCES…): its size, when the path can still be stat-ed, as before.
    const stats = lstatSync(absolute, { throwIfNoEntry: false });
    return { state: stats?.isFile() ? { bytes: stats.size } : undefined };
  }
  if ('refused' in opened) {
    if (opened.refused === 'absent') return { state: null };
    if (opened.refused === 'too-large') return { state: { bytes: opened.size } };
    return { state: undefined };
  }
  const { fd, stats } = opened;
  try {
    return { state: await hashDescriptor(fd, stats), mode: stats.mode & 0o777 };
  } catch {
    return { state: { bytes: stats.size }, mode: stats.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}

/** The same, from content already in memory (fs_edit reads the file it edits anyway). */
export function priorStateOf(data: Buffer): PriorState {
  return { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

/**
 * An effect on a file, keyed by its real path relative to the real project root. `evidence`
 * is the file as it stands after the call; `before` (write effects) what the path held just
 * before it — omitted when unknown.
 */
export function fileEffect(
  kind: EffectKind,
  relative: string,
  evidence?: FileEvidence,
  extra: Partial<Effect> = {},
  before?: PriorState,
): Effect {
  const observed = {
    ...(evidence ? { bytes: evidence.bytes, sha256: evidence.sha256 } : {}),
    ...(before !== undefined ? { before } : {}),
  };
  return {
    kind,
    space: 'file',
    key: relative,
    id: relative,
    type: 'file',
    ...(Object.keys(observed).length > 0 ? { observed } : {}),
    ...extra,
  };
}

/** Files under a directory, relative to the root (before a delete or move of the directory). */
export function filesUnder(root: ProjectRoot, directoryRelative: string): string[] {
  const base = join(root.realRoot, directoryRelative);
  return walkFiles(base, { limit: TREE_EFFECTS })
    .entries.filter((entry) => entry.type === 'file')
    .map((entry) => `${directoryRelative}/${entry.relative}`);
}

/**
 * Claims about files are canonicalized by the same resolver the tools use: `./docs/a.md`,
 * an absolute path inside the root and a path through a symlinked directory all name
 * `docs/a.md`. Content claims are checked against the file as it stands at finish.
 */
export function fileClaimResolver(root: ProjectRoot): ClaimResolver {
  return {
    space: 'file',
    canonical: async (spelling) => (await root.resolve(spelling)).relative,
    inspect: async (key) => {
      const absolute = join(root.realRoot, key);
      let stats: ReturnType<typeof lstatSync>;
      try {
        stats = lstatSync(absolute);
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return undefined;
        throw error;
      }
      if (!stats.isFile() || stats.size > INSPECT_LIMIT) return undefined;
      // Security: opened without blocking and re-checked, in case a FIFO was swapped in.
      const { handle } = await openRegularFile(absolute, key);
      let data: Buffer;
      try {
        data = await handle.readFile();
      } finally {
        await handle.close();
      }
      return { sha256: createHash('sha256').update(data).digest('hex'), content: data.toString('utf8') };
    },
  };
}
