import type { Scope } from '../../packs/http/endpoints/scope.js';
import { FishermanInputError } from './fish-context.js';

/**
 * A scope that matches nothing is refused before any request: falling back to every
 * endpoint would create the data in whatever project the examples came from — somewhere
 * the test will never look.
 */
export function refuseUnmatchedScope(scope: Scope): void {
  if (!scope.fallback) return;
  throw new FishermanInputError(
    'FISHERMAN_SCOPE_UNMATCHED',
    `Scope "${scope.path}" matches no known write endpoint, so nothing was created. Pass a --scope that names a project or page the captures (or spec) cover, or leave --scope out.`,
    { scope: scope.path },
  );
}
