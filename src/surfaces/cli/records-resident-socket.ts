import { lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { secureStateDir } from '../../core/io/private-dir.js';
import { pathKey } from '../../packs/records/path-key.js';

/**
 * Where the resident records server of a root listens, shared by the server and the CLI that
 * asks it. Bumped with any change of the request or answer shape: an old server is then simply
 * not found (a new socket name), never asked in a language it does not speak.
 */
export const RESIDENT_PROTOCOL = '1';

/**
 * Everything that can change a query's answer besides its flags: the root, the settings that
 * pick the stores and the index, and the code itself (the launcher's path and its build time),
 * so a CLI never asks a server of another root, another configuration or an older build.
 */
export function residentKey(root: string, build: string, env: NodeJS.ProcessEnv): string {
  return JSON.stringify([
    RESIDENT_PROTOCOL,
    build,
    root,
    env.TALLY_RECORDS_STORES ?? '',
    env.TALLY_RECORDS_INDEX ?? '',
    env.TALLY_RECORDS_INDEX_CHECK ?? '',
    env.XDG_CACHE_HOME ?? '',
    env.HOME ?? '',
  ]);
}

// Linux's sun_path holds 107 bytes; a longer socket path cannot be bound, so it is not tried.
const MAX_SOCKET_PATH = 107;

/**
 * The per-user folder of resident sockets: `$XDG_RUNTIME_DIR/tally`, else `$TMPDIR/tally-<uid>`.
 * Created 0700; refused (undefined, with why) when it is a link, another user's, or open to
 * group or others — anyone who could write there could plant a socket that answers our queries.
 */
export function residentDir(env: NodeJS.ProcessEnv): { dir: string } | { refused: string } {
  const uid = process.getuid?.();
  if (uid === undefined) return { refused: 'no user id on this platform (unix sockets only)' };
  const runtime = env.XDG_RUNTIME_DIR && isAbsolute(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : undefined;
  const dir = runtime ? join(runtime, 'tally') : join(tmpdir(), `tally-${uid}`);
  const checked = secureStateDir(dir, { create: true });
  if ('refused' in checked) return { refused: checked.why };
  // secureStateDir checked owner and kind; a mode open to others is refused here, not repaired:
  // a folder someone loosened is not one to trust with a socket that was already in it.
  const mode = lstatSync(dir).mode & 0o777;
  if ((mode & 0o077) !== 0)
    return { refused: `${dir} is mode ${mode.toString(8)}: open to other users (it must be 700)` };
  return { dir };
}

/** The socket of `key` in `dir`, or undefined when the path is too long to bind. */
export function residentSocketPath(dir: string, key: string): string | undefined {
  const path = join(dir, `records-${pathKey(key)}.sock`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}
