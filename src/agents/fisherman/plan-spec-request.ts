import { sameType, singular } from '../../core/type-words.js';
import { ambiguousResource, resourcesNamed } from '../../packs/http/endpoints/resource-name.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { endsInId, linkedName, linkStem, namesParent } from '../../packs/http/link-field.js';
import type { ApiOperation } from '../../packs/http/openapi/api-operation.js';
import type { ApiSpecIndex } from '../../packs/http/openapi/api-spec-index.js';
import { flattenSchema, isSchema, typeOf } from '../../packs/http/openapi/flatten-schema.js';
import { sampleValue } from '../../packs/http/openapi/sample-value.js';
import { scalarTypeOf, singleObjectSchema } from '../../packs/http/openapi/single-object-schema.js';
import type { ExecutablePlan, ExecutableType, FreshBody } from './execute-data-plan.js';
import { countOf, pluralOf } from './fish-contract.js';
import type { DataRequest } from './parse-data-request.js';
import type { ParentLink } from './planned-link.js';

const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const parameterName = (segment: string) => /^\{([^}]+)\}$/.exec(segment)?.[1];

type Planned = { plan: ExecutablePlan } | { error: string };

/** A POST to a collection (not to an item path like `/pet/{petId}`): what creates things. */
const isCreate = (operation: ApiOperation) =>
  operation.method === 'POST' &&
  operation.resource !== undefined &&
  parameterName(segmentsOf(operation.path).at(-1) ?? '') === undefined;

const createdResources = (spec: ApiSpecIndex) =>
  spec.operations.filter(isCreate).map((operation) => operation.resource as string);

/** POST operations that create a type: a collection (not an item path) whose resource is that type, exactly named if one is. */
function creators(type: string, spec: ApiSpecIndex): ApiOperation[] {
  const named = new Set(resourcesNamed(type, createdResources(spec)));
  return spec.operations.filter(
    (operation) => isCreate(operation) && named.has(operation.resource as string),
  );
}

/** How a child operation names its parent: a path parameter after the parent's collection, else a body field named after it. */
function linkOf(parentType: string, child: ApiOperation): ParentLink | undefined {
  const segments = segmentsOf(child.path);
  const at = segments.findIndex(
    (segment, position) =>
      !segment.includes('{') && sameType(parentType, segment) && parameterName(segments[position + 1] ?? ''),
  );
  if (at >= 0) return { kind: 'path', index: at + 1 };
  const single = child.requestBody ? singleObjectSchema(child.requestBody.schema) : undefined;
  const schema = single && 'schema' in single ? single.schema : undefined;
  const properties = schema && isSchema(schema.properties) ? schema.properties : {};
  // A field named after the parent type first: beside `projectId`, `parentId` is a parent task.
  const fields = Object.entries(properties);
  const named = [
    ...fields.filter(([field]) => sameType(parentType, linkStem(field))),
    ...fields.filter(([field]) => namesParent(field)),
  ];
  for (const [field, property] of named) {
    // A relation may take the id or the whole object (`oneOf: [integer, Author]`): the id it is.
    const type = scalarTypeOf(property);
    if (type === undefined) continue;
    return { kind: 'body', field, numeric: type === 'integer' || type === 'number' };
  }
  return undefined;
}

const pathParameter = (operation: ApiOperation, name: string) =>
  operation.parameters.find((entry) => entry.in === 'path' && entry.name === name);

/** The spec's example, default or first enum value for a path parameter. */
function exampleOf(operation: ApiOperation, name: string): unknown {
  const parameter = pathParameter(operation, name);
  const schema = parameter?.schema ? flattenSchema(parameter.schema) : {};
  return (
    parameter?.example ??
    schema.example ??
    schema.default ??
    (Array.isArray(schema.enum) ? schema.enum[0] : undefined)
  );
}

/** The path segment the run's --scope value fills: the first parameter (not the link's) that can take it. */
function scopeSegment(operation: ApiOperation, scope: Scope, link?: ParentLink): number | undefined {
  if (!scope.key || scope.fallback) return undefined;
  for (const [at, segment] of segmentsOf(operation.path).entries()) {
    const name = parameterName(segment);
    if (name === undefined || (link?.kind === 'path' && link.index === at)) continue;
    const parameter = pathParameter(operation, name);
    const schema = parameter?.schema ? flattenSchema(parameter.schema) : {};
    const numeric = ['integer', 'number'].includes(typeOf(schema) ?? '');
    if (!numeric || /^\d+$/.test(scope.key)) return at;
  }
  return undefined;
}

/**
 * A concrete path for an operation: the link's parameter gets a placeholder (the executor
 * puts the parent's id there), the others the scope's key, else the spec's example,
 * default or first enum value.
 */
function fillPath(operation: ApiOperation, scope: Scope, link?: ParentLink): string | { error: string } {
  const segments = segmentsOf(operation.path);
  const scoped = scopeSegment(operation, scope, link);
  const filled: string[] = [];
  for (const [at, segment] of segments.entries()) {
    const name = parameterName(segment);
    if (name === undefined) {
      filled.push(segment);
      continue;
    }
    if (link?.kind === 'path' && link.index === at) {
      filled.push('0');
      continue;
    }
    if (at === scoped) {
      filled.push(encodeURIComponent(scope.key as string));
      continue;
    }
    const value = exampleOf(operation, name);
    if (value === undefined || value === null)
      return {
        error: `cannot fill {${name}} of POST ${operation.path}: the spec gives no example or default; pass --scope with its value (e.g. --scope /${segments.slice(0, at).join('/')}/VALUE)`,
      };
    filled.push(encodeURIComponent(String(value)));
  }
  return `/${filled.join('/')}`;
}

/**
 * An executable step for a type from the spec: the concrete path, a body built from the
 * request schema (shown as the example), and each item's own body built the same way with
 * its label and its token (the run's marker and its serial) — so emails, usernames, codes
 * and the like differ between items and between runs.
 */
function stepFor(
  type: string,
  count: number,
  operation: ApiOperation,
  scope: Scope,
  link?: ParentLink,
): ExecutableType | { error: string } {
  if (operation.requestBody && !/json|\*\/\*/i.test(operation.requestBody.contentType))
    return { error: `POST ${operation.path} takes ${operation.requestBody.contentType}, not JSON` };
  // One item per request: of "an Item or an array of Items", the Item.
  const single = operation.requestBody ? singleObjectSchema(operation.requestBody.schema) : undefined;
  if (single && 'error' in single)
    return { error: `the request body of POST ${operation.path} ${single.error}` };
  const schema = single?.schema;
  const missing: string[] = [];
  const body = schema ? sampleValue(schema, { missing }) : {};
  if (missing.length > 0)
    return {
      error: `cannot build a request body for POST ${operation.path}: required ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no finite value (the schema is recursive or nested too deep there)`,
    };
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
    return { error: `the request body of POST ${operation.path} is not a JSON object` };
  const path = fillPath(operation, scope, link);
  if (typeof path !== 'string') return path;
  const fresh: FreshBody = (label, unique) =>
    (schema ? (sampleValue(schema, { label, unique }) ?? {}) : {}) as Record<string, unknown>;
  return { type, count, example: { path, requestBody: body ?? {} }, fresh };
}

/** The creator of a child type that links to the parent (a nested collection preferred). */
function linkedCreator(parentType: string, childType: string, spec: ApiSpecIndex) {
  const candidates = creators(childType, spec)
    .map((operation) => ({ operation, link: linkOf(parentType, operation) }))
    .filter((candidate): candidate is { operation: ApiOperation; link: ParentLink } =>
      Boolean(candidate.link),
    );
  return candidates.find((candidate) => candidate.link.kind === 'path') ?? candidates[0];
}

/** The container a request names ("5 tests in suite 101"): linked by path or body field, never guessed. */
function containerFor(request: DataRequest, top: ApiOperation, spec: ApiSpecIndex, scope: Scope) {
  const named = request.parent;
  if (!named) return {};
  const link = linkOf(named.type, top);
  const creator = creators(named.type, spec)[0];
  if (!link || !creator)
    return {
      error: `no operation of the OpenAPI documents puts ${pluralOf(request.type)} into a ${singular(named.type)}: no ${singular(named.type)} path parameter or ${singular(named.type)}Id-like body field in POST ${top.path}`,
    };
  const step = stepFor(named.type, 1, creator, scope);
  if ('error' in step) return step;
  return {
    container: {
      type: named.type,
      example: step.example,
      ...(step.fresh ? { fresh: step.fresh } : {}),
      link,
      id: named.id,
    },
  };
}

/**
 * The parent a create requires that no one named: "2 comments" whose body requires a `postId`
 * naming a creatable collection. The executor uses an existing one a read finds, else makes
 * one, and says which; before, the schema's sample id (`postId: 1`) was sent, linking the
 * items to a post that may not exist or not be the test's.
 */
function requiredContainer(top: ApiOperation, spec: ApiSpecIndex, scope: Scope) {
  const single = top.requestBody ? singleObjectSchema(top.requestBody.schema) : undefined;
  const schema = single && 'schema' in single ? flattenSchema(single.schema) : undefined;
  if (!schema || !isSchema(schema.properties)) return undefined;
  const properties = schema.properties as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const resources = createdResources(spec);
  for (const field of required) {
    const stem = linkedName(field);
    const type = scalarTypeOf(properties[field]);
    if (!stem || type === undefined) continue;
    const [resource, ...others] = resourcesNamed(stem, resources);
    if (!resource || others.length > 0 || sameType(resource, top.resource as string)) continue;
    const creator = creators(resource, spec)[0];
    const step = creator ? stepFor(resource, 1, creator, scope) : undefined;
    if (!step || 'error' in step) continue;
    const link: ParentLink = { kind: 'body', field, numeric: type === 'integer' || type === 'number' };
    return { type: resource, example: step.example, ...(step.fresh ? { fresh: step.fresh } : {}), link };
  }
  return undefined;
}

/**
 * The parent a create's path requires that no one named: "3 pets" whose only create is
 * `POST /owners/{ownerId}/pets`. Found by a read or made, as for a body field; before, the
 * spec's example `ownerId` was sent unchecked and the pets went into an owner that need not
 * exist. A parent id no operation creates is refused: Tally cannot find or make one.
 */
function pathContainer(top: ApiOperation, spec: ApiSpecIndex, scope: Scope, named?: ParentLink) {
  const segments = segmentsOf(top.path);
  const scoped = scopeSegment(top, scope, named);
  const resources = createdResources(spec);
  for (const [at, segment] of segments.entries()) {
    const name = parameterName(segment);
    const before = segments[at - 1];
    if (name === undefined || before === undefined || parameterName(before) !== undefined) continue;
    if (at === scoped || (named?.kind === 'path' && named.index === at)) continue;
    const [resource, ...others] = resourcesNamed(before, resources);
    const other = resource && others.length === 0 && !sameType(resource, top.resource as string);
    const creator = other ? creators(resource, spec)[0] : undefined;
    const step = creator ? stepFor(resource as string, 1, creator, scope) : undefined;
    if (step && !('error' in step)) {
      const link: ParentLink = { kind: 'path', index: at };
      return {
        container: {
          type: resource as string,
          example: step.example,
          ...(step.fresh ? { fresh: step.fresh } : {}),
          link,
        },
      };
    }
    // `{version}` after `/api` names no parent; `{ownerId}` after `/owners` does.
    if (!endsInId(name) && !sameType(before, name)) continue;
    // With no example, filling the path says what to pass.
    if (exampleOf(top, name) === undefined) continue;
    const kind = singular(decodeURIComponent(before));
    return {
      error: `POST ${top.path} puts ${top.resource} into the ${kind} {${name}} names, and no operation of the OpenAPI documents creates ${before} to find or make one: name an existing ${kind} (e.g. --scope /${segments.slice(0, at).join('/')}/ID)`,
    };
  }
  return {};
}

/**
 * Why a plan would create outside the run's scope: a step that makes items has no path segment
 * for the scope's value. Refused before any request; the verdict would only find it after.
 */
function outsideScope(plan: ExecutablePlan, scope: Scope): string | undefined {
  if (!scope.key || scope.fallback) return undefined;
  const made = plan.container?.id === undefined ? [plan.container] : [];
  for (const step of [plan.parent, plan.child, ...made]) {
    if (!step) continue;
    const path = step.example.path.split('?')[0] as string;
    if (segmentsOf(path).some((segment) => decodeURIComponent(segment) === scope.key)) continue;
    const items = countOf('count' in step ? step.count : 1, step.type);
    const parent = singular(segmentsOf(scope.path).at(-2) ?? 'parent');
    return `--scope ${scope.path} puts the run in ${scope.key}, but POST ${path} makes ${items} with no path parameter to take it: they would be made outside the scope (leave --scope out, and name the parent in the request instead, e.g. "${items} in ${parent} ${scope.key}")`;
  }
  return undefined;
}

/**
 * Plans "N <type> [with M <type> each] [in <type> <id>]" from OpenAPI documents alone:
 * the POST operations that create each type, the child's link to its parent (path
 * parameter or body field named after it), bodies built from the request schemas.
 */
export function planSpecRequest(request: DataRequest, spec: ApiSpecIndex, scope: Scope): Planned {
  // Only what could be created: a POST to an item path (`/pet/{petId}`) updates, it never creates.
  const known = [...new Set(createdResources(spec))];
  for (const type of [request.type, request.children?.type, request.parent?.type]) {
    const ambiguous = type === undefined ? undefined : ambiguousResource(type, known);
    if (ambiguous) return { error: `${ambiguous} (creatable: ${known.join(', ')})` };
  }
  const parentCreators = creators(request.type, spec);
  // The least nested creator: a top-level collection needs no parent of its own.
  const top = [...parentCreators].sort((a, b) => a.path.split('{').length - b.path.split('{').length)[0];
  if (!top)
    return {
      error: `no operation of the OpenAPI documents creates "${request.type}" (creatable: ${known.join(', ') || 'nothing'})`,
    };
  const named = containerFor(request, top, spec, scope);
  if ('error' in named) return { error: named.error as string };
  const byPath = pathContainer(top, spec, scope, named.container?.link);
  if ('error' in byPath) return { error: byPath.error as string };
  if (byPath.container && named.container)
    return {
      error: `POST ${top.path} needs a ${singular(byPath.container.type)} as well as the ${singular(named.container.type)} the request names, and a run fills one parent: name the ${singular(byPath.container.type)} with --scope`,
    };
  const implied = request.parent || byPath.container ? undefined : requiredContainer(top, spec, scope);
  const container = implied ? { container: implied } : byPath.container ? byPath : named;
  const parent = stepFor(request.type, request.count, top, scope, container.container?.link);
  if ('error' in parent) return parent;
  const plan: ExecutablePlan = { parent, ...(container.container ? { container: container.container } : {}) };
  if (!request.children) return scoped(plan, scope);
  const linked = linkedCreator(request.type, request.children.type, spec);
  if (!linked) {
    const exists = creators(request.children.type, spec).length > 0;
    return {
      error: exists
        ? `cannot tell how a ${request.children.type} links to its ${request.type}: no {${request.type}Id}-like path parameter or ${request.type}_id-like body field in the OpenAPI documents`
        : `no operation of the OpenAPI documents creates "${request.children.type}" (creatable: ${known.join(', ') || 'nothing'})`,
    };
  }
  const child = stepFor(request.children.type, request.children.count, linked.operation, scope, linked.link);
  if ('error' in child) return child;
  plan.child = { ...child, link: linked.link };
  return scoped(plan, scope);
}

const scoped = (plan: ExecutablePlan, scope: Scope): Planned => {
  const outside = outsideScope(plan, scope);
  return outside ? { error: outside } : { plan };
};

/**
 * The captures' plan when they have one (browser examples are the ground truth); else the
 * plan from the OpenAPI documents; else why neither works.
 */
export function withSpecPlan(
  captured: { plan: ExecutablePlan } | { error: string },
  request: DataRequest,
  context: { spec?: ApiSpecIndex; scope: Scope; set: { captures: unknown[] } },
): Planned {
  if ('plan' in captured || !context.spec) return captured;
  const fromSpec = planSpecRequest(request, context.spec, context.scope);
  if ('plan' in fromSpec || context.set.captures.length === 0) return fromSpec;
  return { error: `${captured.error}; from the OpenAPI documents: ${fromSpec.error}` };
}
