import type { NetEffect } from '../../core/effects.js';
import { sameType } from '../../core/type-words.js';
import { type ContractEntity, depthOf, type FishContract, isRefParent } from './fish-contract.js';
import { matchTitles } from './match-titles.js';
import { linkedToExisting, parentOf } from './parent-link.js';

export type Constraint =
  | { kind: 'top' }
  | { kind: 'ref'; parent: ContractEntity }
  | { kind: 'id'; type: string; id: string };

/** Entities of one type group that share where their items go: the same resources satisfy each. */
export interface Bucket {
  entities: ContractEntity[];
  constraint: Constraint;
  members: NetEffect[];
}

/** Entities whose types name the same resources (`suite`, `suites`), and the resources of those types. */
export interface TypeGroup {
  entities: ContractEntity[];
  pool: NetEffect[];
  buckets: Bucket[];
  /** Resources of the group's types that satisfy no bucket (under the wrong parent, or none). */
  unassigned: NetEffect[];
}

export interface Assignment {
  groups: TypeGroup[];
  /** Per entity ref: its items (exact for a bucket of one entity or titled apart, else the bucket's). */
  membersOf: Map<string, NetEffect[]>;
  /** Entity refs whose members are shared with other entities of their bucket. */
  shared: Set<string>;
}

const related = (a: string, b: string) => sameType(a, b) || sameType(b, a);

function groupsOf(entities: ContractEntity[], created: NetEffect[]): TypeGroup[] {
  const groups: TypeGroup[] = [];
  for (const entity of entities) {
    const group = groups.find((candidate) =>
      candidate.entities.some((other) => related(other.type, entity.type)),
    );
    if (group) group.entities.push(entity);
    else groups.push({ entities: [entity], pool: [], buckets: [], unassigned: [] });
  }
  for (const group of groups)
    group.pool = created.filter(
      (net) => net.type && group.entities.some((entity) => sameType(entity.type, net.type as string)),
    );
  return groups;
}

function constraintOf(entity: ContractEntity, refs: Map<string, ContractEntity>): Constraint {
  const parent = entity.parent;
  if (isRefParent(parent)) return { kind: 'ref', parent: refs.get(parent.ref) as ContractEntity };
  return parent ? { kind: 'id', type: parent.type, id: parent.id } : { kind: 'top' };
}

function sameConstraint(a: Constraint, b: Constraint): boolean {
  if (a.kind === 'ref' && b.kind === 'ref') return a.parent === b.parent;
  if (a.kind === 'id' && b.kind === 'id') return a.id === b.id && related(a.type, b.type);
  return a.kind === b.kind;
}

/** Splits a bucket's members between its entities by their titles, when every entity titles all its items. */
function splitByTitles(bucket: Bucket, membersOf: Map<string, NetEffect[]>, shared: Set<string>): void {
  const [only] = bucket.entities;
  if (bucket.entities.length === 1 && only) {
    membersOf.set(only.ref, bucket.members);
    return;
  }
  const titled = bucket.entities.every((entity) => entity.titles?.length === entity.count);
  const slots = titled
    ? bucket.entities.flatMap((entity) => (entity.titles ?? []).map((title) => ({ entity, title })))
    : [];
  const { matched } = matchTitles(
    slots.map((slot) => slot.title),
    bucket.members,
  );
  for (const entity of bucket.entities) {
    if (!titled) {
      membersOf.set(entity.ref, bucket.members);
      shared.add(entity.ref);
      continue;
    }
    const own: NetEffect[] = [];
    slots.forEach((slot, index) => {
      const resource = matched.get(index);
      if (slot.entity === entity && resource) own.push(resource);
    });
    membersOf.set(entity.ref, own);
  }
}

/**
 * Which created resources stand for which entity of a contract. Per type group: items
 * under an existing parent named by id; items linked to a parent this run made for the
 * contract (parents first); top-level items — those not linked to a created resource of a
 * parent type the group nests under. What satisfies nothing is `unassigned`.
 */
export function assignContract(contract: FishContract, created: NetEffect[]): Assignment {
  const refs = new Map(contract.entities.map((entity) => [entity.ref, entity]));
  const groups = groupsOf(contract.entities, created);
  const membersOf = new Map<string, NetEffect[]>();
  const shared = new Set<string>();
  for (const group of groups) {
    for (const entity of group.entities) {
      const constraint = constraintOf(entity, refs);
      const bucket = group.buckets.find((candidate) => sameConstraint(candidate.constraint, constraint));
      if (bucket) bucket.entities.push(entity);
      else group.buckets.push({ entities: [entity], constraint, members: [] });
    }
  }
  const depth = (bucket: Bucket) => Math.min(...bucket.entities.map((entity) => depthOf(entity, refs) ?? 0));
  const buckets = groups
    .flatMap((group) => group.buckets.map((bucket) => ({ group, bucket })))
    .sort((a, b) => depth(a.bucket) - depth(b.bucket));
  const underExisting = new Set<NetEffect>();
  for (const { group, bucket } of buckets) {
    const { constraint } = bucket;
    if (constraint.kind !== 'id') continue;
    bucket.members = group.pool.filter((net) => linkedToExisting(net, constraint));
    for (const net of bucket.members) underExisting.add(net);
  }
  for (const { group, bucket } of buckets) {
    const { constraint } = bucket;
    if (constraint.kind === 'top') {
      const nests = group.buckets.flatMap((other) =>
        other.constraint.kind === 'ref' ? [other.constraint.parent.type] : [],
      );
      bucket.members = group.pool.filter(
        (net) =>
          !underExisting.has(net) &&
          !nests.some(
            (type) =>
              parentOf(
                net,
                type,
                created.filter((other) => other !== net && other.type && sameType(type, other.type)),
              ).parent,
          ),
      );
    } else if (constraint.kind === 'ref') {
      const parents = membersOf.get(constraint.parent.ref) ?? [];
      bucket.members = group.pool.filter(
        (net) =>
          !underExisting.has(net) &&
          !parents.includes(net) &&
          parentOf(net, constraint.parent.type, parents).parent,
      );
    }
    splitByTitles(bucket, membersOf, shared);
  }
  for (const group of groups) {
    const assigned = new Set(group.buckets.flatMap((bucket) => bucket.members));
    group.unassigned = group.pool.filter((net) => !assigned.has(net));
  }
  return { groups, membersOf, shared };
}
