/**
 * The digest key for a session id, or undefined when the id cannot identify a session:
 * empty, or an unexpanded placeholder such as `${CLAUDE_SESSION_ID}` (which would otherwise
 * make every session share — and read — one another's digests).
 */
export function digestKey(sessionId: string | undefined | null): string | undefined {
  const raw = (sessionId ?? '').trim();
  if (!raw) return undefined;
  if (/\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%/i.test(raw)) return undefined;
  const key = raw
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[.-]+/, '')
    .slice(0, 128);
  return key || undefined;
}
