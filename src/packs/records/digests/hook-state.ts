import { dirname, isAbsolute, join, resolve } from 'node:path';
import {
  ensureDirLevel,
  type StateDir,
  type StateDirRefusal,
  secureStateDir,
  statIfAny,
  unusablePath,
} from '../../../core/io/private-dir.js';
// Registers the payload reasons every hook process records (each one finds its log here).
import './digest-fail-open-reasons.js';

export type HookTallyDir =
  | { tally: StateDir; root: string }
  | { refused: StateDirRefusal['refused'] | 'payload-shape-unrecognized'; why: string };

/**
 * The `.tally` folder a hook may keep state in — the ownership rule:
 * - TALLY_RECORDS_ROOT names a root the user gave Tally: its `.tally` may be created there
 *   (one level, the root must exist), like `tally records query` does for its index.
 * - Otherwise the payload's `cwd` (else the process's) names nothing for Tally: its `.tally`
 *   is used only if it already exists, as a real directory of this user — a Tally command
 *   made it there. The hook never creates `<cwd>/.tally`.
 * Nothing is created through a symlink, nor with `mkdir -p` (which spins forever on /proc).
 */
export function hookTallyDir(env: NodeJS.ProcessEnv, payloadCwd: unknown, processCwd: string): HookTallyDir {
  if (env.TALLY_RECORDS_ROOT) {
    const root = resolve(processCwd, env.TALLY_RECORDS_ROOT);
    const unusable = unusablePath(root);
    if (unusable) return { refused: 'store-unwritable', why: `TALLY_RECORDS_ROOT is unusable: ${unusable}` };
    if (!statIfAny(root)?.isDirectory())
      return { refused: 'store-unwritable', why: `TALLY_RECORDS_ROOT ${root} is not an existing directory` };
    const tally = secureStateDir(join(root, '.tally'), { create: true });
    return 'refused' in tally ? tally : { tally, root };
  }
  const cwd = payloadCwd === undefined ? processCwd : payloadCwd;
  const unusable = unusablePath(cwd);
  if (unusable)
    return {
      refused: 'payload-shape-unrecognized',
      why: `the payload's cwd cannot be a working directory: ${unusable}`,
    };
  const root = cwd as string;
  const tally = secureStateDir(join(root, '.tally'), { create: false });
  if ('refused' in tally)
    return tally.refused === 'state-dir-unowned'
      ? {
          refused: 'state-dir-unowned',
          why: `${root} has no .tally folder, so Tally keeps no state there. Run a tally command in it (e.g. \`tally records query\`) or set TALLY_RECORDS_ROOT.`,
        }
      : tally;
  return { tally, root };
}

/**
 * The user-level state folder, `$XDG_STATE_HOME/tally` else `~/.local/state/tally`: where a
 * hook records why it declined when no project folder is Tally's. Missing levels are made
 * one at a time; `tally` itself is a real 0700 directory of this user.
 */
export function userStateDir(env: NodeJS.ProcessEnv): StateDir | StateDirRefusal {
  const xdg = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : undefined;
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : undefined;
  const levels = xdg ? [xdg] : home ? [join(home, '.local'), join(home, '.local', 'state')] : [];
  if (levels.length === 0)
    return {
      refused: 'store-unwritable',
      reason: 'unusable',
      why: 'neither XDG_STATE_HOME nor HOME is an absolute path',
    };
  try {
    for (const level of levels) {
      if (unusablePath(level))
        return { refused: 'store-unwritable', reason: 'unusable', why: `${level} is unusable` };
      if (!ensureDirLevel(level))
        return { refused: 'store-unwritable', reason: 'parent-missing', why: `${level} cannot be made` };
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') throw error;
    return {
      refused: 'store-unwritable',
      reason: 'errno',
      why: `${levels.at(-1)}: ${(error as Error).message}`,
    };
  }
  return secureStateDir(join(levels.at(-1) as string, 'tally'), { create: true, mode: 0o700 });
}

/**
 * Where the hook's fail-open lines go, first that works: TALLY_FAIL_OPEN_LOG (its folder must
 * exist), the owned `.tally`, the user-level state folder. Undefined: stderr only.
 */
export function hookFailOpenLog(env: NodeJS.ProcessEnv, tally: StateDir | undefined): string | undefined {
  const explicit = env.TALLY_FAIL_OPEN_LOG;
  if (explicit && !unusablePath(explicit) && statIfAny(dirname(explicit))?.isDirectory()) return explicit;
  if (tally) return join(tally.dir, 'fail-open.jsonl');
  const user = userStateDir(env);
  return 'refused' in user ? undefined : join(user.dir, 'fail-open.jsonl');
}
