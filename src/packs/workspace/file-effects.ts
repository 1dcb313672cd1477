import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { ClaimResolver } from '../../core/agent/claims.js';
import type { Effect, EffectKind } from '../../core/effects.js';
import type { FileEvidence } from './file-evidence.js';
import { openRegularFile } from './open-regular-file.js';
import type { ProjectRoot } from './project-root.js';
import { walkFiles } from './walk-files.js';

/** Content claims read at most this much of a file. */
const INSPECT_LIMIT = 16 * 1024 * 1024;
/** A directory delete or move reports at most this many files. */
const TREE_EFFECTS = 2000;

/** An effect on a file, keyed by its real path relative to the real project root. */
export function fileEffect(
  kind: EffectKind,
  relative: string,
  evidence?: FileEvidence,
  extra: Partial<Effect> = {},
): Effect {
  return {
    kind,
    space: 'file',
    key: relative,
    id: relative,
    type: 'file',
    ...(evidence ? { observed: { bytes: evidence.bytes, sha256: evidence.sha256 } } : {}),
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
