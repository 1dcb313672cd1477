import { createHash } from 'node:crypto';

/** The longest key; a longer one keeps its start and ends in a hash of the whole id. */
const MAX_KEY = 128;

/**
 * The digest key for a session id, or undefined when the id cannot identify a session:
 * empty, or an unexpanded placeholder such as `${CLAUDE_SESSION_ID}` (which would otherwise
 * make every session share — and read — one another's digests).
 *
 * Two ids never share a key (the key names the files a session reads back, and its turn state):
 * lower-case letters, digits, `-` and a `.` after the first character stay as they are (Claude
 * Code's UUIDs are keys as they stand); every other byte of the id's UTF-8 — `_` itself, upper
 * case too, for case-blind file systems — becomes `_` and two hex digits. Replacing them all by
 * `_` made `alice/x` and `alice_x` one session, each reading the other's digests. A key
 * longer than 128 characters is cut and ends in `+` and a hash of the whole id (`+` is in no
 * other key).
 */
export function digestKey(sessionId: string | undefined | null): string | undefined {
  const raw = (sessionId ?? '').trim();
  if (!raw) return undefined;
  if (/\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%/i.test(raw)) return undefined;
  let key = '';
  for (const char of raw) {
    if (/[a-z0-9]/.test(char) || (key !== '' && (char === '-' || char === '.'))) key += char;
    else for (const byte of Buffer.from(char, 'utf8')) key += `_${byte.toString(16).padStart(2, '0')}`;
  }
  if (key.length <= MAX_KEY) return key;
  const hash = createHash('sha256').update(raw).digest('hex');
  return `${key.slice(0, 100)}+${hash.slice(0, MAX_KEY - 101)}`;
}
