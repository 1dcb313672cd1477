import { singular } from '../../core/type-words.js';
import { splitPath } from '../../packs/http/endpoints/id-shape.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { type FishContract, isRefParent } from './fish-contract.js';
import { parseFishContract } from './parse-fish-contract.js';
import { SCOPE_WORDS } from './request-tokens.js';

/** The shape the deterministic planners and recipes take: one type, optional children, an optional existing parent. */
export interface DataRequest {
  count: number;
  type: string;
  children?: { count: number; type: string };
  /** "5 tests in suite 101": the existing parent the top-level items go into. */
  parent?: { type: string; id: string };
}

/** `Alpha Shop`, `alpha_shop` and `alpha-shop` name one project. */
export const slugOf = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

/** `orgs`, `organisation` and `organization` are one kind of scope; `projects` and `project` another. */
const scopeKind = (word: string) => {
  const one = singular(word.toLowerCase());
  return one === 'org' || one === 'organisation' ? 'organization' : one;
};

/**
 * Whether a scope named in a request is one of the segments of the run's `--scope` path. With
 * the word that named it (`team` in "in team alpha-shop"), a segment the path files under
 * another scope word (`/projects/alpha-shop`) is another thing of the same name, not it.
 */
export function scopeNamesRun(name: string, scope: Scope, type?: string): boolean {
  const path = scope.path.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? '';
  const segments = splitPath(path).map((segment) => decodeURIComponent(segment));
  return segments.some((segment, index) => {
    if (slugOf(segment) !== slugOf(name)) return false;
    const before = segments[index - 1]?.toLowerCase();
    return !(type && before && SCOPE_WORDS.has(before) && scopeKind(before) !== scopeKind(type));
  });
}

/**
 * A contract as the planners' shape, when it fits: one top-level type (optionally into an
 * existing parent), at most one child type with a count per parent, no titles, and no scope
 * other than the run's own (`scope`). Anything richer is not a plan, and `why` says what part
 * of the request the planners cannot take: a planner that ignored part of a request would
 * create something else than what was asked.
 */
export function planShapeOf(
  contract: FishContract,
  scope?: Scope,
): { request: DataRequest } | { why: string } {
  if (contract.scope !== undefined && !(scope && scopeNamesRun(contract.scope, scope, contract.scopeType))) {
    const named = `${contract.scopeType ?? 'scope'} ${contract.scope}`;
    const where = scope?.path || '(none given)';
    return {
      why:
        scope && scopeNamesRun(contract.scope, scope)
          ? `the request names ${named}, and in --scope ${where} ${contract.scope} is another kind of scope: pass --scope for the ${contract.scopeType}`
          : `the request names ${named}, which is not a segment of --scope ${where}: pass --scope for it`,
    };
  }
  const top = contract.entities.filter((entity) => !isRefParent(entity.parent));
  const children = contract.entities.filter((entity) => isRefParent(entity.parent));
  const [parent] = top;
  const [child] = children;
  if (!parent || top.length !== 1 || children.length > 1)
    return {
      why: `the request asks for ${contract.entities.map((entity) => entity.type).join(', ')}: the deterministic tier makes one type, optionally with one child type`,
    };
  if (contract.entities.some((entity) => entity.titles?.length))
    return { why: 'the request names titles, which only the model tier sets' };
  const request: DataRequest = { count: parent.count, type: parent.type };
  if (parent.parent && !isRefParent(parent.parent)) request.parent = { ...parent.parent };
  if (child) {
    if (!(child.perParent || parent.count === 1))
      return {
        why: `the request does not say how the ${child.type} are spread over the ${parent.count} ${parent.type} (write "with ${child.count} ${child.type} each")`,
      };
    request.children = { count: child.count, type: child.type };
  }
  return { request };
}

/** `planShapeOf`'s request, or undefined when the contract is richer than a plan. */
export function toDataRequest(contract: FishContract, scope?: Scope): DataRequest | undefined {
  const shape = planShapeOf(contract, scope);
  return 'request' in shape ? shape.request : undefined;
}

/**
 * The deterministic tier's grammar, as a view of the contract parser: "N <type> [with M
 * <child type> each | in it] [in <parent type> <id>] [in project <name of the run's scope>]"
 * and its wordings ("a dozen", "under suite #7", ", each with", "(3 tests each)", "10 tests in
 * a new suite", which is "a suite with 10 tests"), with or without the words
 * that only ask for it ("create …", "please make …", "… for me"): those name no other action,
 * and the contract the run is judged by reads them the same way. Anything else is `why` it is not, where the contract parser read it
 * (the model tier may take it).
 */
export function dataRequestShape(
  text: string,
  scope?: Scope,
  knownTypes?: readonly string[],
): { request: DataRequest } | { why?: string } {
  // The app's resource names, as the run's contract reads them: `2 user groups` plans against
  // `/user-groups` exactly where the verdict would judge it so.
  const contract = parseFishContract(text, knownTypes ? { knownTypes } : {});
  return contract ? planShapeOf(contract, scope) : {};
}

/** `dataRequestShape`'s request, or undefined. */
export function parseDataRequest(text: string, scope?: Scope): DataRequest | undefined {
  const shape = dataRequestShape(text, scope);
  return 'request' in shape ? shape.request : undefined;
}
