import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../../../core/io/atomic-write.js';
import { isSameStateDir, secureStateDir } from '../../../core/io/private-dir.js';
import { createRedactor } from '../../../core/redact.js';
import { readRegularFile } from '../read-regular-file.js';
import { digestKey } from './digest-key.js';

export interface Digest {
  file: string;
  writtenAt: number;
  text: string;
}

const NAME = /^(.+)\.digest\.(\d{13})\.([0-9a-f]+)$/;

/** `<root>/.tally/digests` unless TALLY_DIGEST_DIR says otherwise. */
export function digestDir(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.TALLY_DIGEST_DIR || join(root, '.tally', 'digests');
}

export type WriteOutcome =
  | { written: string; reaped: number }
  | { refused: 'no-session' | 'store-unwritable' | 'state-dir-unowned'; why: string };

const DAY_MS = 86_400_000;

/**
 * The only writer. One file per digest, `<key>.digest.<ms>.<unique>`, written to a temp
 * name and renamed: no counter, no read-modify-write, so concurrent writers never lose one.
 * The directory is created only under an existing parent, never through a symlink, and must
 * be a 0700 directory of this user; files are 0600. A store that cannot be secured is not
 * written to, chmod-ed or reaped. Digests older than the TTL are reaped here (the reader
 * never deletes).
 */
export function writeDigest(
  dir: string,
  sessionId: string | undefined,
  text: string,
  options: { ttlDays: number; now?: number },
): WriteOutcome {
  const key = digestKey(sessionId);
  if (!key)
    return {
      refused: 'no-session',
      why: `session id "${sessionId ?? ''}" is empty or an unexpanded placeholder`,
    };
  const now = options.now ?? Date.now();
  const state = secureStateDir(dir, { create: true, mode: 0o700, realParent: true });
  if ('refused' in state) return state;
  try {
    const name = `${key}.digest.${String(now).padStart(13, '0')}.${process.pid.toString(16)}${randomBytes(6).toString('hex')}`;
    // Core's atomic write: an O_EXCL temp beside it (never through a planted link), fsync, rename.
    // Scrubbed as the ledger is, whoever wrote the text (a hook's payload too): nothing secret on disk.
    writeFileAtomicSync(join(dir, name), createRedactor().redactText(text), { mode: 0o600 });
    // Security: reap only in the directory that was checked, not in one swapped in since.
    if (!isSameStateDir(state))
      return { refused: 'store-unwritable', why: `${dir} was replaced while the digest was written` };
    let reaped = 0;
    for (const file of readdirSync(dir)) {
      const match = NAME.exec(file);
      if (match && now - Number(match[2]) > options.ttlDays * DAY_MS) {
        try {
          unlinkSync(join(dir, file));
          reaped += 1;
        } catch (error) {
          if ((error as { code?: string }).code !== 'ENOENT') throw error; // another writer reaped it first
        }
      }
    }
    return { written: join(dir, name), reaped };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
      return { refused: 'store-unwritable', why: `${dir}: ${(error as Error).message}` };
    throw error;
  }
}

/**
 * Read-only by construction: lists and reads, never writes or deletes. Newest first. A
 * symlinked digest folder is not read (`refused` says why), and only regular files are read:
 * a FIFO named like a digest is skipped, never opened blocking.
 */
export function readDigests(
  dir: string,
  sessionId: string | undefined,
  options: { keep: number; ttlDays: number; now?: number },
): { digests: Digest[]; total: number; key?: string; refused?: string } {
  const key = digestKey(sessionId);
  if (!key) return { digests: [], total: 0 };
  const now = options.now ?? Date.now();
  // Security: the reader follows no link either: another folder's files are not this session's.
  if (lstatSync(dirname(dir), { throwIfNoEntry: false })?.isSymbolicLink())
    return { digests: [], total: 0, key, refused: `${dirname(dir)} is a symbolic link; no digests read` };
  let state: ReturnType<typeof lstatSync>;
  try {
    state = lstatSync(dir, { throwIfNoEntry: false });
  } catch (error) {
    // A parent that is a file (ENOTDIR) or unreadable: nothing to read, said, never thrown.
    return {
      digests: [],
      total: 0,
      key,
      refused: `${dir}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    };
  }
  if (!state) return { digests: [], total: 0, key };
  if (!state.isDirectory())
    return {
      digests: [],
      total: 0,
      key,
      refused: `${dir} is ${state.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; no digests read`,
    };
  const mine = readdirSync(dir)
    .map((file) => ({ file, match: NAME.exec(file) }))
    .filter((entry) => entry.match?.[1] === key && now - Number(entry.match[2]) <= options.ttlDays * DAY_MS)
    .sort((a, b) => Number(b.match?.[2]) - Number(a.match?.[2]) || b.file.localeCompare(a.file));
  const digests: Digest[] = [];
  const redactor = createRedactor();
  let total = 0;
  for (const { file, match } of mine) {
    let read: ReturnType<typeof readRegularFile>;
    try {
      read = readRegularFile(join(dir, file));
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') continue; // reaped since it was listed
      throw error;
    }
    if ('notRegular' in read) continue;
    total += 1;
    // Scrubbed on the way in too: a digest written before the writer scrubbed (or by hand) is
    // handed to agents and hooks as text.
    if (digests.length < options.keep)
      digests.push({ file, writtenAt: Number(match?.[2]), text: redactor.redactText(read.content) });
  }
  return { digests, total, key };
}
