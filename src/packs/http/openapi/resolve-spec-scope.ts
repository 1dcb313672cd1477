import { splitPath } from '../endpoints/id-shape.js';
import type { Scope } from '../endpoints/scope.js';
import type { ApiSpecIndex } from './api-spec-index.js';

/**
 * The scope of an achieve-mode run: the last segment of the scope path that no document
 * spells as a literal (`/projects/alpha-shop` → `alpha-shop`). It is the value a path
 * parameter takes (`/api/{project}/suites`) and what every created path must contain.
 * A scope with no such segment keeps everything, loudly.
 */
export function resolveSpecScope(scopePath: string | undefined, spec: ApiSpecIndex): Scope {
  const path = scopePath ?? '';
  const segments = splitPath(path.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? '');
  if (segments.length === 0) return { path, fallback: false };
  const literals = new Set(spec.operations.flatMap((operation) => splitPath(operation.path)));
  const key = segments.filter((segment) => !literals.has(segment)).at(-1);
  if (key === undefined)
    return {
      path,
      fallback: true,
      note: `Scope "${path}" names no value a path parameter of the OpenAPI documents could take, so ALL operations are in play; check --scope.`,
    };
  return { path, key, fallback: false };
}
