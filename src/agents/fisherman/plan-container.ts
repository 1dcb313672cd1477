import { sameType } from '../../core/type-words.js';
import type { Capture } from '../../packs/http/captures/capture.js';
import type { CaptureIndex, Endpoint } from '../../packs/http/endpoints/capture-index.js';
import { splitPath } from '../../packs/http/endpoints/id-shape.js';
import { ID } from '../../packs/http/endpoints/path-normalizer.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { linkedName } from '../../packs/http/link-field.js';
import type { DataRequest } from './parse-data-request.js';
import type { ParentLink } from './planned-link.js';

/**
 * The parent the top-level items of a request must go into (`tests` need a `suite`): found
 * when no one asked for it, or named ("in suite 101"). With an `id` the items go there;
 * without one the executor looks the collection up and uses an existing one, or creates one.
 */
export interface ContainerPlan {
  type: string;
  endpoint: Endpoint;
  example: Capture;
  link: ParentLink;
  id?: string;
}

type Creator = { endpoint: Endpoint; example: Capture };

/**
 * How an item links to a parent of another collection: an id path segment right after that
 * collection, or a body field NAMED after it (`suite_id`). Only names count here: a value
 * that merely equals some id seen in the captures (an action's response echoing a suite)
 * is no reason to nest a whole request under it.
 */
function containerLink(parent: Endpoint, item: Endpoint, example: Capture): ParentLink | undefined {
  const resource = parent.resource;
  if (!resource) return undefined;
  const segments = splitPath(item.pattern);
  const at = segments.findIndex(
    (segment, position) => sameType(segment, resource) && segments[position + 1] === ID,
  );
  if (at >= 0) return { kind: 'path', index: at + 1 };
  const body = example.requestBody;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    const stem = linkedName(field);
    if (stem && sameType(stem, resource) && (typeof value === 'number' || typeof value === 'string'))
      return { kind: 'body', field, numeric: typeof value === 'number' };
  }
  return undefined;
}

/** The container of a request's top-level type, or why a named one cannot be used. */
export function planContainer(
  request: DataRequest,
  top: Creator,
  index: CaptureIndex,
  scope: Scope,
  creator: (type: string) => Creator | { error: string },
): { container?: ContainerPlan } | { error: string } {
  const named = request.parent;
  const candidates = index
    .endpoints(scope)
    .filter(
      (endpoint) =>
        endpoint.method === 'POST' &&
        endpoint.resource !== undefined &&
        endpoint.resource !== top.endpoint.resource &&
        splitPath(endpoint.pattern).at(-1) !== ID &&
        (!named || sameType(named.type, endpoint.resource)),
    );
  for (const candidate of candidates) {
    const link = containerLink(candidate, top.endpoint, top.example);
    if (!link) continue;
    const parent = creator(candidate.resource as string);
    if ('error' in parent) continue;
    return {
      container: {
        type: candidate.resource as string,
        ...parent,
        link,
        ...(named ? { id: named.id } : {}),
      },
    };
  }
  if (named)
    return {
      error: `cannot tell how a ${request.type} goes into a ${named.type}: no captured ${request.type} example names a ${named.type} in its path or a ${named.type}_id-like body field`,
    };
  return {};
}
