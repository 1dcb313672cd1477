import { splitPath } from '../../packs/http/endpoints/id-shape.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { type FishContract, isRefParent } from './fish-contract.js';
import { parseFishContract } from './parse-fish-contract.js';

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

/** Whether a scope named in a request is one of the segments of the run's `--scope` path. */
export function scopeNamesRun(name: string, scope: Scope): boolean {
  const path = scope.path.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? '';
  return splitPath(path).some((segment) => slugOf(decodeURIComponent(segment)) === slugOf(name));
}

/**
 * A contract as the planners' shape, when it fits: one top-level type (optionally into an
 * existing parent), at most one child type with a count per parent, no titles, and no scope
 * other than the run's own (`scope`). Anything richer is undefined: a planner that ignored
 * part of a request would create something else than what was asked.
 */
export function toDataRequest(contract: FishContract, scope?: Scope): DataRequest | undefined {
  if (contract.scope !== undefined && !(scope && scopeNamesRun(contract.scope, scope))) return undefined;
  const top = contract.entities.filter((entity) => !isRefParent(entity.parent));
  const children = contract.entities.filter((entity) => isRefParent(entity.parent));
  const [parent] = top;
  const [child] = children;
  if (!parent || top.length !== 1 || children.length > 1) return undefined;
  if (contract.entities.some((entity) => entity.titles?.length)) return undefined;
  const request: DataRequest = { count: parent.count, type: parent.type };
  if (parent.parent && !isRefParent(parent.parent)) request.parent = { ...parent.parent };
  if (child) {
    if (!(child.perParent || parent.count === 1)) return undefined;
    request.children = { count: child.count, type: child.type };
  }
  return request;
}

/**
 * The deterministic tier's grammar, as a view of the contract parser: "N <type> [with M
 * <child type> each | in it] [in <parent type> <id>]" and its wordings ("a dozen", "under
 * suite #7", ", each with"), the request alone (no "please create …"). Anything else
 * returns undefined (the model tier may take it).
 */
export function parseDataRequest(text: string, scope?: Scope): DataRequest | undefined {
  const contract = parseFishContract(text, { requestOnly: true });
  return contract && toDataRequest(contract, scope);
}
