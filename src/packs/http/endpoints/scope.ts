import { type Capture, WRITE_METHODS } from '../captures/capture.js';
import { splitPath } from './id-shape.js';

export interface Scope {
  /** The scope path as given. */
  path: string;
  /** The most selective segment of the scope path; undefined means everything is in scope. */
  key?: string;
  /** True when no segment of the scope matched any write: all writes are kept, loudly. */
  fallback: boolean;
  note?: string;
}

/**
 * Scores each segment of the scope path by how many captured writes contain it; the key is
 * the non-zero segment with the fewest matches (leftmost on ties). A root or empty scope
 * keeps everything; a scope that matches nothing falls back to all writes and says so.
 */
export function resolveScope(scopePath: string | undefined, captures: Capture[]): Scope {
  const path = scopePath ?? '';
  const segments = splitPath(path.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? '');
  if (segments.length === 0) return { path, fallback: false };
  const writes = captures
    .filter((capture) => WRITE_METHODS.has(capture.method))
    .map((capture) => new Set(splitPath(capture.path)));
  let best: { segment: string; count: number } | undefined;
  for (const segment of segments) {
    const count = writes.filter((write) => write.has(segment)).length;
    if (count > 0 && (!best || count < best.count)) best = { segment, count };
  }
  if (!best) {
    return {
      path,
      fallback: true,
      note: `Scope "${path}" matched no captured write, so ALL captured endpoints are listed; check --scope.`,
    };
  }
  return { path, key: best.segment, fallback: false };
}

export function inScope(capture: Capture, scope: Scope): boolean {
  return scope.key === undefined || splitPath(capture.path).includes(scope.key);
}

/**
 * What a scope can name, for the message when the user's matches nothing: the segments of
 * captured writes that select some of them — not one every write has (`api`), not a type
 * (a write's last segment), not an id.
 */
export function coveredScopes(captures: Capture[], limit = 8): string[] {
  const writes = captures
    .filter((capture) => WRITE_METHODS.has(capture.method))
    .map((w) => splitPath(w.path));
  const types = new Set(writes.map((segments) => segments.at(-1)));
  const keys = new Set<string>();
  for (const segments of writes)
    for (const segment of segments) {
      if (types.has(segment) || /^\d+$|^[0-9a-f-]{16,}$/i.test(segment)) continue;
      if (writes.every((other) => other.includes(segment))) continue;
      keys.add(segment);
    }
  return [...keys].sort().slice(0, limit);
}
