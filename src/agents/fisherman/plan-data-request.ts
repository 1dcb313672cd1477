import type { Capture } from '../../packs/http/captures/capture.js';
import { extractIds } from '../../packs/http/client/extract-ids.js';
import type { CaptureIndex, Endpoint } from '../../packs/http/endpoints/capture-index.js';
import { splitPath } from '../../packs/http/endpoints/id-shape.js';
import { ID } from '../../packs/http/endpoints/path-normalizer.js';
import { ambiguousResource, resourcesNamed, sameResource } from '../../packs/http/endpoints/resource-name.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { linkStem, namesParent } from '../../packs/http/link-field.js';
import type { DataRequest } from './parse-data-request.js';
import { type ContainerPlan, planContainer } from './plan-container.js';
import type { ParentLink } from './planned-link.js';

export interface PlannedType {
  type: string;
  count: number;
  endpoint: Endpoint;
  example: Capture;
}

export interface DataPlan {
  parent: PlannedType;
  child?: PlannedType & { link: ParentLink };
  /** The parent the top-level items go into ("3 tests" need a suite; "in suite 101" names it). */
  container?: ContainerPlan;
}

export type PlanResult = { plan: DataPlan } | { error: string };

/**
 * A POST that acts on an item that exists (`POST /suites/101/move` answering suite 101) rather
 * than creating one: its last word is a verb, not a type, so it is never offered as creatable.
 */
function actsOnItem(example: { path: string; responseBody?: unknown } | undefined): boolean {
  const parentId = example?.path.split('/').filter(Boolean).at(-2);
  if (!parentId) return false;
  const body = example?.responseBody as { data?: { id?: unknown }; id?: unknown } | undefined;
  const id = body?.data?.id ?? body?.id;
  return id !== undefined && String(id) === parentId;
}

/** The POST endpoint that creates a type: a collection whose last segment is that resource. */
export function creatingEndpoint(
  type: string,
  index: CaptureIndex,
  scope: Scope,
): { endpoint: Endpoint; example: Capture } | { error: string } {
  const collections = index
    .endpoints(scope)
    .filter(
      (endpoint) =>
        endpoint.method === 'POST' && endpoint.resource && splitPath(endpoint.pattern).at(-1) !== ID,
    );
  const ambiguous = ambiguousResource(
    type,
    collections.map((endpoint) => endpoint.resource as string),
  );
  if (ambiguous) return { error: ambiguous };
  const named = new Set(
    resourcesNamed(
      type,
      collections.map((endpoint) => endpoint.resource as string),
    ),
  );
  const creators = collections.filter((endpoint) => named.has(endpoint.resource as string));
  const known = [
    ...new Set(
      index
        .endpoints(scope)
        .filter(
          (endpoint) =>
            endpoint.method === 'POST' && !actsOnItem(index.example('POST', endpoint.pattern, scope)),
        )
        .map((endpoint) => endpoint.resource),
    ),
  ].join(', ');
  if (creators.length === 0)
    return {
      error: `no captured endpoint creates "${type}"${scope.key ? ` in scope ${scope.key}` : ''} (creatable: ${known || 'nothing'})`,
    };
  for (const endpoint of creators) {
    const example = index.example('POST', endpoint.pattern, scope);
    if (example && example.status < 400 && example.requestBody && typeof example.requestBody === 'object')
      return { endpoint, example };
  }
  return {
    error: `the captures hold no successful JSON example of creating "${type}" (only rejected or non-JSON ones)`,
  };
}

function parentIdsSeen(parent: Endpoint, index: CaptureIndex): Set<string> {
  const ids = new Set<string>();
  for (const capture of parent.examples) {
    if (capture.status < 400)
      for (const id of extractIds(capture.responseBody, capture.responseHeaders.location, parent.resource))
        ids.add(id);
  }
  // Ids that appear right after the parent collection in any captured path (/suites/101/move).
  for (const capture of index.captures) {
    const segments = splitPath(capture.path);
    segments.forEach((segment, at) => {
      if (parent.resource && sameResource(segment, parent.resource) && segments[at + 1])
        ids.add(segments[at + 1] as string);
    });
  }
  return ids;
}

function findLink(
  parent: Endpoint,
  child: Endpoint,
  childExample: Capture,
  index: CaptureIndex,
): ParentLink | undefined {
  const segments = splitPath(child.pattern);
  const at = segments.findIndex(
    (segment, position) =>
      parent.resource && sameResource(segment, parent.resource) && segments[position + 1] === ID,
  );
  if (at >= 0) return { kind: 'path', index: at + 1 };
  const ids = parentIdsSeen(parent, index);
  const body = childExample.requestBody as Record<string, unknown>;
  // Fields named after the parent first: json-server numbers every collection from 1, so a
  // captured `authorId: 1` holds a post's id as well as `postId: 1` does.
  const rank = (field: string) =>
    parent.resource && sameResource(linkStem(field), parent.resource) ? 0 : namesParent(field) ? 1 : 2;
  const fields = Object.entries(body).sort(([x], [y]) => rank(x) - rank(y));
  for (const [field, value] of fields) {
    if ((typeof value === 'number' || typeof value === 'string') && ids.has(String(value)))
      return { kind: 'body', field, numeric: typeof value === 'number' };
  }
  return undefined;
}

/** Plans a request without a model, or says exactly why it cannot. */
export function planDataRequest(request: DataRequest, index: CaptureIndex, scope: Scope): PlanResult {
  const parent = creatingEndpoint(request.type, index, scope);
  if ('error' in parent) return parent;
  const plan: DataPlan = { parent: { type: request.type, count: request.count, ...parent } };
  // Never replay a captured parent id: the items go into a parent found or made now.
  const container = planContainer(request, parent, index, scope, (type) =>
    creatingEndpoint(type, index, scope),
  );
  if ('error' in container) return container;
  if (container.container) plan.container = container.container;
  if (!request.children) return { plan };
  const child = creatingEndpoint(request.children.type, index, scope);
  if ('error' in child) return child;
  const link = findLink(parent.endpoint, child.endpoint, child.example, index);
  if (!link) {
    return {
      error: `cannot tell how a ${request.children.type} links to its ${request.type}: no ${request.type} id in the path or body of the captured example ${child.example.method} ${child.example.path}`,
    };
  }
  plan.child = { type: request.children.type, count: request.children.count, ...child, link };
  return { plan };
}
