import type { RequestCheckContext } from '../../core/agent/agent-definition.js';
import {
  changedUnderAnotherPath,
  createdResources,
  type NetEffect,
  type NetEffects,
} from '../../core/effects.js';
import { sameType, singular } from '../../core/type-words.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { linkStem } from '../../packs/http/link-field.js';
import { assignContract, type Bucket, type TypeGroup } from './assign-contract.js';
import {
  type ContractEntity,
  contractIssues,
  countOf,
  type FishContract,
  isRefParent,
  pluralOf,
  totalCount,
} from './fish-contract.js';
import { matchTitles } from './match-titles.js';
import { childrenUnder, parentOf } from './parent-link.js';
import { scopeNamesRun, slugOf } from './parse-data-request.js';

function name(net: NetEffect): string {
  return `${net.type ?? 'item'} ${net.id ?? net.key}`;
}

const one = (type: string) => singular(type);

/** ` (it points at X[, which existed before this run])`, or nothing. */
function pointer(child: NetEffect, parentType: string, net: NetEffects): string {
  const { claimed } = parentOf(child, parentType, []);
  if (claimed === undefined) return '';
  const target = [...net.values()].find(
    (candidate) =>
      candidate.space === child.space &&
      (candidate.key === claimed ||
        (candidate.id === claimed && candidate.type !== undefined && sameType(parentType, candidate.type))),
  );
  // Seen existing before this run changed it (read first, or only read): an older parent;
  // made by this run: a parent that already has what was asked (one child too many there).
  const whose = target?.preExisting
    ? ', which existed before this run'
    : target?.change === 'created'
      ? ', made by this run but not one it was asked under, or one that already has what was asked'
      : '';
  return ` (it points at ${claimed}${whose})`;
}

function countProblems(group: TypeGroup, contract: FishContract): string[] {
  const [first] = group.entities as [ContractEntity];
  const wanted = group.entities.reduce((sum, entity) => sum + totalCount(entity, contract), 0);
  const problems: string[] = [];
  if (group.pool.length !== wanted) {
    const parent = first.parent;
    const detail =
      group.entities.length === 1 && first.perParent && isRefParent(parent)
        ? ` (${first.count} per ${one(contract.entities.find((entity) => entity.ref === parent.ref)?.type ?? 'parent')})`
        : group.entities.length > 1
          ? ' in all'
          : '';
    problems.push(`asked for ${countOf(wanted, first.type)}${detail}, this run created ${group.pool.length}`);
  }
  if (group.buckets.length < 2) return problems;
  for (const bucket of group.buckets) {
    const expected = bucket.entities.reduce((sum, entity) => sum + totalCount(entity, contract), 0);
    const { constraint } = bucket;
    if (bucket.members.length === expected) continue;
    if (constraint.kind === 'id')
      problems.push(
        `asked for ${countOf(expected, first.type)} in ${constraint.type} ${constraint.id}, this run created ${bucket.members.length} there`,
      );
    else if (constraint.kind === 'top') {
      const nests = group.buckets.map((other) => other.constraint);
      const nest = nests.find((other) => other.kind === 'ref') ?? nests.find((other) => other.kind === 'id');
      const under =
        nest?.kind === 'ref'
          ? ` not under a ${one(nest.parent.type)} this run created`
          : nest?.kind === 'id'
            ? ` outside ${nest.type} ${nest.id}`
            : '';
      problems.push(
        `asked for ${countOf(expected, first.type)}${under}, this run created ${bucket.members.length}`,
      );
    } else if (constraint.kind === 'ref' && !bucket.entities.every((entity) => entity.perParent))
      problems.push(
        `asked for ${countOf(expected, first.type)} under the ${pluralOf(constraint.parent.type)} this run created, it created ${bucket.members.length} there`,
      );
  }
  return problems;
}

function unassignedProblems(group: TypeGroup, net: NetEffects): string[] {
  const constrained = group.buckets.filter((bucket) => bucket.constraint.kind !== 'top');
  return group.unassigned.map((child) => {
    const typeOf = (bucket: Bucket) =>
      bucket.constraint.kind === 'ref'
        ? bucket.constraint.parent.type
        : bucket.constraint.kind === 'id'
          ? bucket.constraint.type
          : '';
    const bucket =
      constrained.find((candidate) => parentOf(child, typeOf(candidate), []).claimed !== undefined) ??
      (constrained[0] as Bucket);
    const { constraint } = bucket;
    const at = pointer(child, typeOf(bucket), net);
    return constraint.kind === 'id'
      ? `${name(child)} is not in ${constraint.type} ${constraint.id}${at}`
      : `${name(child)} is not linked to a ${one(typeOf(bucket))} this run created${at}`;
  });
}

/** Per parent item: as many children as asked for, with the titles asked for. */
function perParentProblems(
  bucket: Bucket,
  membersOf: Map<string, NetEffect[]>,
  shared: Set<string>,
): string[] {
  const { constraint } = bucket;
  if (constraint.kind !== 'ref' || !bucket.entities.every((entity) => entity.perParent)) return [];
  const parentType = constraint.parent.type;
  const [first] = bucket.entities as [ContractEntity];
  const count = bucket.entities.reduce((sum, entity) => sum + entity.count, 0);
  const parents = membersOf.get(constraint.parent.ref) ?? [];
  // Parents that nothing tells apart are checked together (sharedParentProblems).
  if (shared.has(constraint.parent.ref)) return [];
  const under = childrenUnder(bucket.members, parentType);
  const problems: string[] = [];
  const titles = bucket.entities.flatMap((entity) => entity.titles ?? []);
  for (const parent of parents) {
    const children = under(parent);
    if (children.length !== count)
      problems.push(`${name(parent)} has ${children.length} of the ${countOf(count, first.type)} asked for`);
    for (const title of matchTitles(titles, children).unmatched)
      problems.push(`${name(parent)} has no ${one(first.type)} titled "${title}"`);
  }
  return problems;
}

/**
 * Parent entities of one bucket that nothing tells apart ("a suite with 2 tests and a suite
 * with 3 tests"): the numbers of children per parent must match as multisets.
 */
function sharedParentProblems(bucket: Bucket, groups: TypeGroup[], shared: Set<string>): string[] {
  const [first] = bucket.entities as [ContractEntity];
  if (!shared.has(first.ref)) return [];
  const problems: string[] = [];
  for (const group of groups) {
    const childrenOf = (parent: ContractEntity) =>
      group.entities.filter(
        (child) => child.perParent && isRefParent(child.parent) && child.parent.ref === parent.ref,
      );
    if (!bucket.entities.some((parent) => childrenOf(parent).length > 0)) continue;
    const expected = bucket.entities
      .flatMap((parent) =>
        Array<number>(parent.count).fill(childrenOf(parent).reduce((sum, child) => sum + child.count, 0)),
      )
      .sort((a, b) => b - a);
    const actual = bucket.members
      .map(
        (parent) =>
          group.pool.filter(
            (child) =>
              !bucket.members.includes(child) && parentOf(child, first.type, [parent]).parent === parent,
          ).length,
      )
      .sort((a, b) => b - a);
    if (expected.join() !== actual.join())
      problems.push(
        `the ${pluralOf(first.type)} this run created have ${actual.join(', ') || 'no'} ${pluralOf((group.entities[0] as ContractEntity).type)} each, asked for ${expected.join(', ')}`,
      );
  }
  return problems;
}

function titleProblems(bucket: Bucket): string[] {
  if (bucket.constraint.kind === 'ref' && bucket.entities.every((entity) => entity.perParent)) return [];
  const titles = bucket.entities.flatMap((entity) => entity.titles ?? []);
  const [first] = bucket.entities as [ContractEntity];
  const seen = bucket.members
    .filter((net) => typeof net.observed.title === 'string')
    .slice(0, 3)
    .map((net) => `${name(net)} is titled "${net.observed.title as string}"`);
  return matchTitles(titles, bucket.members).unmatched.map(
    (title) =>
      `asked for a ${one(first.type)} titled "${title}", but no ${one(first.type)} this run created has that title${seen.length > 0 ? ` (${seen.join('; ')})` : ''}`,
  );
}

/** An existing parent named by id must not be one this run made up. */
function namedParentProblems(contract: FishContract, created: NetEffect[]): string[] {
  const problems = new Set<string>();
  for (const entity of contract.entities) {
    const parent = entity.parent;
    if (!parent || isRefParent(parent)) continue;
    if (created.some((net) => net.id === parent.id && net.type && sameType(parent.type, net.type)))
      problems.add(
        `${parent.type} ${parent.id} was created by this run, but the request named an existing ${one(parent.type)} ${parent.id}`,
      );
  }
  return [...problems];
}

function insideNamed(net: NetEffect, scope: string, scopeType: string): boolean {
  const wanted = slugOf(scope);
  const segments = net.key.split('/').filter(Boolean);
  if (segments.some((segment) => slugOf(decodeURIComponent(segment)) === wanted)) return true;
  const links = (net.observed.links as Record<string, string> | undefined) ?? {};
  return Object.entries(links).some(([field, value]) => {
    const stem = linkStem(field);
    return sameType(scopeType, stem) && slugOf(String(value)) === wanted;
  });
}

function scopeProblems(contract: FishContract, scope: Scope, created: NetEffect[]): string[] {
  const problems: string[] = [];
  const runKey = scope.key && !scope.fallback ? scope.key : undefined;
  if (runKey)
    for (const net of created) {
      const segments = net.key.split('/').filter(Boolean).map(decodeURIComponent);
      if (!segments.includes(runKey))
        problems.push(`${name(net)} (${net.key}) is outside the requested scope ${scope.path}`);
    }
  const named = contract.scope;
  if (named === undefined) return problems;
  const scopeType = contract.scopeType ?? 'project';
  if (scope.path.trim() && !scopeNamesRun(named, scope, contract.scopeType))
    problems.push(`the request names ${scopeType} ${named}, but the run's scope is ${scope.path}`);
  if (runKey && slugOf(runKey) === slugOf(named)) return problems;
  for (const net of created)
    if (!insideNamed(net, named, scopeType))
      problems.push(`${name(net)} (${net.key}) is not in ${scopeType} ${named}, which the request named`);
  return problems;
}

/**
 * Resources this run created and left that the contract does not ask for: another type ("1
 * suite" and a milestone too), or no type Tally could read. Allowed: the one container per
 * type that top-level items of the request need ("3 tests" names no suite; the run makes one
 * and puts them in it) — a resource that items asked for are linked to.
 */
function unrequestedProblems(contract: FishContract, groups: TypeGroup[], created: NetEffect[]): string[] {
  const asked = new Set(groups.flatMap((group) => group.pool));
  // A made-up "existing" parent is namedParentProblems' to report.
  const named = contract.entities.flatMap((entity) =>
    entity.parent && !isRefParent(entity.parent) ? [entity.parent] : [],
  );
  const namedParent = (net: NetEffect) =>
    named.some((parent) => net.id === parent.id && net.type !== undefined && sameType(parent.type, net.type));
  const topMembers = groups.flatMap((group) =>
    group.pool.filter((net) =>
      group.entities.some(
        (entity) => entity.parent === undefined && sameType(entity.type, net.type as string),
      ),
    ),
  );
  const containers = new Map<string, NetEffect>();
  const problems: string[] = [];
  for (const net of created) {
    if (asked.has(net) || namedParent(net)) continue;
    const type = net.type;
    const holds =
      type !== undefined && topMembers.some((member) => parentOf(member, type, [net]).parent === net);
    const kind = type === undefined ? '' : singular(type);
    if (holds && !containers.has(kind)) {
      containers.set(kind, net);
      continue;
    }
    problems.push(
      `${name(net)} (${net.key}) was created by this run and left, but the request asks for no ${type ? one(type) : 'such item'}${holds ? ' beyond the one its items are put in' : ''}`,
    );
  }
  return problems;
}

/**
 * A resource this run made and then changed through another spelling of its path (the same type
 * and id at another key): what it holds now — its title, its parent, whether it still exists —
 * is not what the create observed, so it meets no part of the contract as seen.
 */
function aliasProblems(created: NetEffect[], net: NetEffects): string[] {
  return created.flatMap((made) =>
    changedUnderAnotherPath(made, net).map(
      (alias) =>
        `${name(made)} (${made.key}) was ${alias.change} afterwards as ${alias.key}, the same ${made.type} under another path: what it holds now is not what the run saw`,
    ),
  );
}

/** Claimed items of a type beyond the distinct resources of that type this run created. */
function claimProblems(group: TypeGroup, context: RequestCheckContext): string[] {
  const [first] = group.entities as [ContractEntity];
  const items = context.verified.filter(
    (item) =>
      typeof item.type === 'string' &&
      group.entities.some((entity) => sameType(entity.type, item.type as string)),
  );
  const keys = items.map((item) => String(item.resource ?? item.target));
  const pool = new Map(group.pool.map((net) => [net.key, net]));
  const distinct = new Set(keys.filter((key) => pool.has(key)));
  if (items.length <= distinct.size) return [];
  const times = new Map<string, number>();
  for (const key of keys) times.set(key, (times.get(key) ?? 0) + 1);
  const repeated = [...times]
    .filter(([, count]) => count > 1)
    .map(
      ([key, count]) => `${pool.has(key) ? name(pool.get(key) as NetEffect) : key} claimed ${count} times`,
    );
  const others = keys.filter((key) => !pool.has(key));
  const why = [...repeated, ...(others.length > 0 ? [`${others.join(', ')} not created by this run`] : [])];
  return [
    `${countOf(items.length, first.type)} claimed, ${countOf(distinct.size, `distinct ${first.type}`)} ${distinct.size === 1 ? 'exists' : 'exist'}${why.length > 0 ? `: ${why.join('; ')}` : ''}`,
  ];
}

/**
 * What the run's net effects lack to meet a Fisherman contract (empty when met): per type,
 * as many DISTINCT created resources as asked; each child linked to a parent this run
 * created (never to an older one) or to the existing parent named by id; quoted titles on
 * distinct items; everything inside the run's scope and the project the request named; nothing
 * of a type the request does not ask for (but the one container its items need); no more
 * claimed items than distinct resources.
 */
export function contractProblems(
  contract: FishContract,
  scope: Scope,
  context: RequestCheckContext,
): string[] {
  const malformed = contractIssues(contract);
  if (malformed.length > 0) return malformed.map((issue) => `the request contract is malformed: ${issue}`);
  const created = createdResources(context.net).filter((net) => net.space === 'http');
  const { groups, membersOf, shared } = assignContract(contract, created);
  const buckets = groups.flatMap((group) => group.buckets);
  return [
    ...groups.flatMap((group) => countProblems(group, contract)),
    ...groups.flatMap((group) => unassignedProblems(group, context.net)),
    ...buckets.flatMap((bucket) => perParentProblems(bucket, membersOf, shared)),
    ...buckets.flatMap((bucket) => sharedParentProblems(bucket, groups, shared)),
    ...buckets.flatMap(titleProblems),
    ...namedParentProblems(contract, created),
    ...scopeProblems(contract, scope, created),
    ...unrequestedProblems(contract, groups, created),
    ...aliasProblems(created, context.net),
    ...groups.flatMap((group) => claimProblems(group, context)),
  ];
}
