import type { ApiSpecIndex } from '../../packs/http/openapi/api-spec-index.js';
import type { HttpToolContext } from '../../packs/http/tools/index.js';

/**
 * The resource names the app knows, from its captured endpoints and its OpenAPI operations
 * alike: what lets the request's reader take `2 user groups` as one type where the app has
 * `/user-groups`. A spec-only run has no captures, so its names come from the spec alone.
 * Only tested for membership.
 */
export function knownTypes(context: HttpToolContext & { spec?: ApiSpecIndex }): string[] {
  const names = new Set(context.index.resources());
  for (const operation of context.spec?.operations ?? [])
    if (operation.resource) names.add(operation.resource);
  return [...names];
}
