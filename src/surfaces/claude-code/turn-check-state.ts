import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../core/io/atomic-write.js';
import { isSameStateDir, type StateDir, secureStateDir } from '../../core/io/private-dir.js';
import { readRegularFileSync } from '../../core/io/read-regular-file.js';
import { digestKey } from '../../packs/records/digests/digest-key.js';
import { hookTallyDir, userStateDir } from '../../packs/records/digests/hook-state.js';

/** What the turn gates remember about one session's current turn. */
export interface TurnState {
  v: 1;
  /** A new id per user prompt (turn-reset). */
  turn: string;
  startedAt: string;
  /** This turn's scout run was found in the ledger (however it ran). */
  scout: boolean;
  /** Its run id, once found. */
  scoutRun?: string;
  /** The am-i-done review ran in this turn. */
  reviewed: boolean;
  /** The Stop gate already asked for the review in this turn (it asks at most once). */
  reviewAsked: boolean;
}

/** Bigger than any state this module writes; a larger file is not ours. */
const MAX_STATE_BYTES = 64 * 1024;
/** Sessions older than this are reaped by turn-reset. */
const STATE_TTL_MS = 2 * 24 * 3600 * 1000;

export type TurnCheckStateDir =
  | { dir: StateDir; where: string; project?: StateDir }
  | { refused: 'store-unwritable' | 'state-dir-unowned'; why: string; project?: StateDir };

/**
 * The folder for turn state, under the `.tally` rules of `hookTallyDir`: the owned `.tally`
 * (TALLY_RECORDS_ROOT's, or an existing `<cwd>/.tally`) else the user-level state folder — a
 * session id is global, so the user's own folder is a natural home. Never `<cwd>/.tally` made
 * by a hook, never through a symlink.
 */
export function turnCheckStateDir(
  env: NodeJS.ProcessEnv,
  payloadCwd: unknown,
  processCwd: string,
): TurnCheckStateDir {
  const project = hookTallyDir(env, payloadCwd, processCwd);
  const base = 'tally' in project ? project.tally : userStateDir(env);
  const owned = 'tally' in project ? { project: project.tally } : {};
  if ('refused' in base) return { refused: base.refused, why: base.why, ...owned };
  const gates = secureStateDir(join(base.dir, 'gates'), { create: true, mode: 0o700, realParent: true });
  if ('refused' in gates) return { ...gates, ...owned };
  return { dir: gates, where: 'tally' in project ? 'project .tally' : 'user state folder', ...owned };
}

export function freshTurn(now = new Date()): TurnState {
  return {
    v: 1,
    turn: `${now.getTime().toString(36)}-${randomBytes(5).toString('hex')}`,
    startedAt: now.toISOString(),
    scout: false,
    reviewed: false,
    reviewAsked: false,
  };
}

function stateFile(dir: StateDir, session: unknown): string | undefined {
  const key = digestKey(typeof session === 'string' ? session : undefined);
  return key ? join(dir.dir, `${key}.turn.json`) : undefined;
}

export type ReadTurn = { state: TurnState } | { missing: string } | { unreadable: string };

function isTurnState(value: unknown): value is TurnState {
  const state = value as Partial<TurnState> | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    state.v === 1 &&
    typeof state.turn === 'string' &&
    typeof state.scout === 'boolean' &&
    typeof state.reviewed === 'boolean' &&
    typeof state.reviewAsked === 'boolean'
  );
}

/** Reads a session's turn state: not through a symlink, not past a size cap, validated. */
export function readTurnState(dir: StateDir, session: unknown): ReadTurn {
  const path = stateFile(dir, session);
  if (!path) return { unreadable: 'the payload has no usable session_id' };
  // Security: core's reader — a link planted as the state file is refused, not followed;
  // a FIFO does not block the hook; nothing past the size cap is read.
  let read: ReturnType<typeof readRegularFileSync>;
  try {
    read = readRegularFileSync(path, { maxBytes: MAX_STATE_BYTES });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return { unreadable: `${path}: ${code}` };
    throw error;
  }
  if ('refused' in read) {
    if (read.refused === 'absent')
      return { missing: `no turn state for this session (${path}); turn-reset has not run` };
    // A link met by the open (O_NOFOLLOW) keeps the errno the notes have always named.
    if (read.refused === 'not-regular')
      return { unreadable: read.stats ? `${path} is not a regular file` : `${path}: ELOOP` };
    return { unreadable: `${path} is larger than ${MAX_STATE_BYTES} bytes` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch (error) {
    if (error instanceof SyntaxError) return { unreadable: `${path} is not JSON` };
    throw error;
  }
  return isTurnState(parsed) ? { state: parsed } : { unreadable: `${path} is not a turn state` };
}

/** Writes a session's turn state whole (temp + rename), so a reader never sees half of it. */
export function writeTurnState(
  dir: StateDir,
  session: unknown,
  state: TurnState,
): { written: string } | { refused: string } {
  const path = stateFile(dir, session);
  if (!path) return { refused: 'the payload has no usable session_id' };
  const swapped = new Error('state directory swapped');
  try {
    writeFileAtomicSync(path, JSON.stringify(state), {
      mode: 0o600,
      // Security: the folder must still be the one checked, not a link swapped in since.
      beforeRename: () => {
        if (!isSameStateDir(dir)) throw swapped;
      },
    });
    return { written: path };
  } catch (error) {
    if (error === swapped) return { refused: `${dir.dir} changed while the state was written` };
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') throw error;
    return { refused: `${path}: ${code}` };
  }
}

/** Removes turn state of sessions idle past the TTL; the count, for the log. */
export function reapTurnStates(dir: StateDir, now = Date.now()): number {
  let reaped = 0;
  for (const name of readdirSync(dir.dir)) {
    if (!name.endsWith('.turn.json') && !name.endsWith('.tmp')) continue;
    const path = join(dir.dir, name);
    try {
      const stats = lstatSync(path);
      if (stats.isFile() && now - stats.mtimeMs > STATE_TTL_MS) {
        unlinkSync(path);
        reaped += 1;
      }
    } catch (error) {
      // Another hook reaped or replaced it first: nothing to do.
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    }
  }
  return reaped;
}
