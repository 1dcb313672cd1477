import { isLiteralWord, isStrongId, splitPath } from './id-shape.js';

export const ID = '{id}';

/** Paths whose pattern is kept (see `PathNormalizer.normalize`). */
const MAX_REMEMBERED = 4096;

/**
 * Turns concrete paths into patterns. A segment becomes `{id}` when it has a strong id
 * shape, or when captures show its position varying between otherwise-equal paths (slugs
 * such as `alpha-shop`): such (position, value) pairs are learned from the captured paths.
 */
export class PathNormalizer {
  private readonly dynamic = new Set<string>();
  /**
   * Patterns already worked out: what is dynamic is fixed once constructed, and a data run
   * normalizes the same few collection paths several times per request (its target, its
   * effects, its evidence) — issue 22's per-entity path.
   */
  private readonly patterns = new Map<string, string>();

  /**
   * `collections`: paths a capture created something at (a POST answered with a new id). Their
   * last segment names a collection even where it varies: `/user-groups` and `/admin-groups`
   * are two collections, not one `{id}` with two slugs.
   */
  constructor(paths: Iterable<string>, collections: Iterable<string> = []) {
    const named = new Set<string>();
    for (const path of collections) {
      const segments = splitPath(path);
      if (segments.length > 0) named.add(`${segments.length - 1}|${segments.at(-1)}`);
    }
    const groups = new Map<string, Set<string>>();
    for (const path of new Set(paths)) {
      const segments = splitPath(path).map((segment) => (isStrongId(segment) ? ID : segment));
      segments.forEach((segment, index) => {
        if (segment === ID) return;
        const key = `${index}|${segments.map((other, at) => (at === index ? '_' : other)).join('/')}`;
        const values = groups.get(key) ?? new Set<string>();
        values.add(segment);
        groups.set(key, values);
      });
    }
    for (const [key, values] of groups) {
      if (values.size < 2) continue;
      // Words that vary are usually different resources (`suites` vs `tests`), not ids.
      if ([...values].every(isLiteralWord)) continue;
      const index = key.slice(0, key.indexOf('|'));
      for (const value of values)
        if (!isLiteralWord(value) && !named.has(`${index}|${value}`)) this.dynamic.add(`${index}|${value}`);
    }
  }

  isDynamic(segment: string, index: number): boolean {
    return isStrongId(segment) || this.dynamic.has(`${index}|${segment}`);
  }

  segments(path: string): string[] {
    return splitPath(path).map((segment, index) =>
      segment === ID || this.isDynamic(segment, index) ? ID : segment,
    );
  }

  normalize(path: string): string {
    let pattern = this.patterns.get(path);
    if (pattern === undefined) {
      pattern = `/${this.segments(path).join('/')}`;
      // Bounded: a long-lived server normalizing ever new ids must not grow without end.
      if (this.patterns.size >= MAX_REMEMBERED) this.patterns.clear();
      this.patterns.set(path, pattern);
    }
    return pattern;
  }
}

/** The resource a collection path is about: its last literal segment (`/api/{id}/suites/{id}` → `suites`). */
export function resourceOf(pattern: string): string | undefined {
  const literals = splitPath(pattern).filter((segment) => segment !== ID);
  return literals.at(-1);
}
