import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
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
  | { refused: 'no-session' | 'store-unwritable'; why: string };

/**
 * The only writer. One file per digest, `<key>.digest.<ms>.<unique>`, written to a temp
 * name and renamed: no counter, no read-modify-write, so concurrent writers never lose one.
 * The directory must be 0700 and the files are 0600; a store that cannot be secured is not
 * written to. Digests older than the TTL are reaped here (the reader never deletes).
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
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const mode = statSync(dir).mode & 0o777;
    if (mode !== 0o700)
      return { refused: 'store-unwritable', why: `${dir} is mode ${mode.toString(8)}, not 700` };
    const name = `${key}.digest.${String(now).padStart(13, '0')}.${process.pid.toString(16)}${randomBytes(6).toString('hex')}`;
    const temporary = join(dir, `.${name}.tmp`);
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, join(dir, name));
    let reaped = 0;
    for (const file of readdirSync(dir)) {
      const match = NAME.exec(file);
      if (match && now - Number(match[2]) > options.ttlDays * 86_400_000) {
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
    const code = (error as { code?: string }).code;
    if (
      code === 'EACCES' ||
      code === 'EPERM' ||
      code === 'EROFS' ||
      code === 'ENOTDIR' ||
      code === 'EEXIST'
    ) {
      return { refused: 'store-unwritable', why: `${dir}: ${(error as Error).message}` };
    }
    throw error;
  }
}

/** Read-only by construction: lists and reads, never writes or deletes. Newest first. */
export function readDigests(
  dir: string,
  sessionId: string | undefined,
  options: { keep: number; ttlDays: number; now?: number },
): { digests: Digest[]; total: number; key?: string } {
  const key = digestKey(sessionId);
  if (!key) return { digests: [], total: 0 };
  const now = options.now ?? Date.now();
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { digests: [], total: 0, key };
    throw error;
  }
  const mine = files
    .map((file) => ({ file, match: NAME.exec(file) }))
    .filter(
      (entry) => entry.match?.[1] === key && now - Number(entry.match[2]) <= options.ttlDays * 86_400_000,
    )
    .sort((a, b) => Number(b.match?.[2]) - Number(a.match?.[2]) || b.file.localeCompare(a.file));
  const digests = mine.slice(0, options.keep).map(({ file, match }) => ({
    file,
    writtenAt: Number(match?.[2]),
    text: readFileSync(join(dir, file), 'utf8'),
  }));
  return { digests, total: mine.length, key };
}
