import type { Capture } from '../../packs/http/captures/capture.js';
import { coveredScopes, type Scope } from '../../packs/http/endpoints/scope.js';
import { FishermanInputError } from './fish-context.js';

/**
 * A scope that matches nothing is refused before any request: falling back to every
 * endpoint would create the data in whatever project the examples came from — somewhere
 * the test will never look.
 */
export function refuseUnmatchedScope(scope: Scope, captures: Capture[] = []): void {
  if (!scope.fallback) return;
  const valid = coveredScopes(captures);
  throw new FishermanInputError(
    'FISHERMAN_SCOPE_UNMATCHED',
    `Scope "${scope.path}" matches no known write endpoint, so nothing was created. Pass a --scope that names a project or page the captures (or spec) cover${valid.length > 0 ? ` (the captures' writes are under: ${valid.join(', ')}; e.g. --scope ${scope.path.replace(/[^/]*\/?$/, valid[0] as string)})` : ''}, or leave --scope out.`,
    { scope: scope.path, valid },
  );
}
