import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { singular, spelledAsWords, typeWords } from '../../core/type-words.js';

/** Counts above this are not test data; the parser and the plan tool refuse them. */
export const MAX_COUNT = 1000;

/** Where an entity's items go: under another entity of this contract, or under an existing resource. */
export type ContractParent = { ref: string } | { type: string; id: string };

/**
 * One kind of thing a request asks for. `count` is per parent item when `perParent` is true
 * ("2 suites with 3 tests each": 3 per suite), else the total. `titles` are quoted titles
 * the created items must carry (each on a distinct item; per parent item when `perParent`).
 */
export interface ContractEntity {
  ref: string;
  /** The type as the request words it, lower case (`suites`, `test cases`). */
  type: string;
  count: number;
  parent?: ContractParent;
  perParent?: boolean;
  titles?: string[];
}

/**
 * A Fisherman request's structure, as data: what to create, how much, under what, with
 * which titles, in which project. `scope` is the project (or workspace…) the request names;
 * `scopeType` the word that named it (`project` in "in project alpha-shop").
 */
export interface FishContract {
  entities: ContractEntity[];
  scope?: string;
  scopeType?: string;
}

export const isRefParent = (parent: ContractParent | undefined): parent is { ref: string } =>
  parent !== undefined && 'ref' in parent;

/** What makes a contract unusable (unknown or circular parent refs, more titles than items…). */
export function contractIssues(contract: FishContract): string[] {
  const issues: string[] = [];
  const refs = new Map<string, ContractEntity>();
  for (const entity of contract.entities) {
    if (refs.has(entity.ref)) issues.push(`ref "${entity.ref}" names two entities`);
    refs.set(entity.ref, entity);
  }
  for (const entity of contract.entities) {
    const parent = entity.parent;
    if (isRefParent(parent)) {
      if (!refs.has(parent.ref))
        issues.push(`${entity.ref}'s parent "${parent.ref}" is not an entity of the contract`);
      else if (depthOf(entity, refs) === undefined) issues.push(`${entity.ref}'s parents form a cycle`);
    } else if (entity.perParent !== undefined)
      issues.push(`${entity.ref} says perParent but has no parent entity in the contract`);
    if (entity.titles && entity.titles.length > entity.count)
      issues.push(`${entity.ref} has ${entity.titles.length} titles for ${entity.count} items`);
  }
  return issues;
}

/** Nesting depth (0 = top level), or undefined on a cycle or an unknown ref. */
export function depthOf(entity: ContractEntity, refs: Map<string, ContractEntity>): number | undefined {
  const seen = new Set<string>();
  let depth = 0;
  let current: ContractEntity | undefined = entity;
  while (current && isRefParent(current.parent)) {
    if (seen.has(current.ref)) return undefined;
    seen.add(current.ref);
    current = refs.get(current.parent.ref);
    if (!current) return undefined;
    depth++;
  }
  return depth;
}

// Built on first use: the tiers check the contracts they build with `contractIssues` itself, so
// only a caller parsing a stated contract (the tests) builds it (issue 22: ~2 ms of every `tally fish`).
/** A contract as stated (its entities, counts and links), with `contractIssues` as refinements. */
export const fishContractSchema = builtOnce(buildFishContractSchema);

function buildFishContractSchema() {
  const text = z.string().trim().min(1).max(200);
  const entity = z.object({
    ref: text,
    type: text,
    count: z.number().int().min(1).max(MAX_COUNT),
    parent: z
      .union([z.object({ ref: text }).strict(), z.object({ type: text, id: text }).strict()])
      .optional(),
    perParent: z.boolean().optional(),
    titles: z.array(text).max(MAX_COUNT).optional(),
  });
  return z
    .object({
      entities: z.array(entity).min(1).max(50),
      scope: text.optional(),
      scopeType: text.optional(),
    })
    .superRefine((contract, context) => {
      for (const issue of contractIssues(contract)) context.addIssue({ code: 'custom', message: issue });
    });
}

/** How many items of an entity the whole request asks for (per-parent counts multiplied out). */
export function totalCount(entity: ContractEntity, contract: FishContract): number {
  const refs = new Map(contract.entities.map((candidate) => [candidate.ref, candidate]));
  let total = entity.count;
  let current = entity;
  const seen = new Set<string>();
  while (current.perParent && isRefParent(current.parent) && !seen.has(current.ref)) {
    seen.add(current.ref);
    const parent = refs.get(current.parent.ref);
    if (!parent) break;
    total *= parent.count;
    current = parent;
  }
  return total;
}

const IRREGULAR_PLURALS: Record<string, string> = { person: 'people', child: 'children', datum: 'data' };

/** `suite` → `suites`, `category` → `categories`, `test case` → `test cases`; plural words stay. */
export function pluralOf(word: string): string {
  // `testCases` is said as `test cases` (core/type-words' spelledAsWords), not `testcases`.
  const words = spelledAsWords(word).split(/\s+/);
  const last = words.pop() as string;
  const one = singular(last);
  let many: string;
  if (one !== last) many = last;
  else if (IRREGULAR_PLURALS[one]) many = IRREGULAR_PLURALS[one] as string;
  else if (/[^aeiou]y$/.test(one)) many = `${one.slice(0, -1)}ies`;
  else if (/(s|sh|ch|x|z)$/.test(one)) many = `${one}es`;
  else many = `${one}s`;
  // A form `singular` cannot read back (`series`) is left as it was said.
  if (singular(many) !== one) many = last;
  return [...words, many].join(' ');
}

/** `1 suite`, `3 suites`: the number in digits and the type agreeing with it. */
export function countOf(count: number, type: string): string {
  const words = spelledAsWords(type).split(/\s+/);
  const last = words.pop() as string;
  return `${count} ${[...words, count === 1 ? singular(last) : pluralOf(last)].join(' ')}`;
}

const quote = (title: string) => (title.includes('"') ? `“${title}”` : `"${title}"`);

function listOf(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function itemText(entity: ContractEntity): string {
  const titles = entity.titles?.length ? ` called ${listOf(entity.titles.map(quote))}` : '';
  return `${countOf(entity.count, entity.type)}${titles}`;
}

function childrenOf(entity: ContractEntity, contract: FishContract): ContractEntity[] {
  return contract.entities.filter(
    (candidate) => isRefParent(candidate.parent) && candidate.parent.ref === entity.ref,
  );
}

/**
 * An entity and what goes under it. `open`: it ends in a ", each with …" clause that a comma
 * must close; `bare`: it ends in "with N x" with no marker, which another item must not follow.
 */
function describeEntity(
  entity: ContractEntity,
  contract: FishContract,
  depth: number,
): { text: string; open: boolean; bare?: boolean } {
  const children = childrenOf(entity, contract);
  const at =
    entity.parent && !isRefParent(entity.parent) ? ` in ${entity.parent.type} ${entity.parent.id}` : '';
  const text = `${itemText(entity)}${at}`;
  if (children.length === 0) return { text, open: false };
  const perParent = children.every((child) => child.perParent);
  const total = children.every((child) => !child.perParent);
  const each = (child: ContractEntity) =>
    `${describeEntity(child, contract, depth + 1).text}${perParent || total ? '' : child.perParent ? ' each' : ' in total'}`;
  const listed = listOf(children.map(each));
  // Several children with no marker would be ambiguous (children, or more top-level items?).
  const tail = total ? ' in total' : perParent && children.length > 1 ? ' in it' : '';
  // Deeper levels are bracketed: "with 2 suites (each with 3 tests)" cannot be misread.
  if (depth > 0)
    return {
      text: `${text} (${perParent ? 'each ' : ''}with ${listed}${total ? ' in total' : ''})`,
      open: false,
    };
  if (perParent && entity.count > 1) return { text: `${text}, each with ${listed}`, open: true };
  return { text: `${text} with ${listed}${tail}`, open: false, bare: tail === '' };
}

/** One human line for a contract: "2 suites, each with 3 tests, in project alpha-shop". */
export function describeContract(contract: FishContract): string {
  const parts = contract.entities
    .filter((entity) => !isRefParent(entity.parent))
    .map((entity) => describeEntity(entity, contract, 0));
  let line = '';
  parts.forEach((part, index) => {
    line += part.text;
    // "1 suite with 2 tests and 3 users" would read the users as the suite's.
    if (part.bare && index < parts.length - 1) line += ' in it';
    if (index < parts.length - 2) line += ', ';
    else if (index === parts.length - 2) line += part.open ? ', and ' : ' and ';
  });
  if (contract.scope === undefined) return line;
  const bare = /^[\p{L}\p{N}][\p{L}\p{N}._~-]*$/u.test(contract.scope);
  const name = bare ? contract.scope : quote(contract.scope);
  // "in alpha-shop" reads as a scope only when the name cannot be an English word.
  const slug = bare && /[\p{N}._~-]/u.test(contract.scope) && !/^\p{N}+$/u.test(contract.scope);
  const where = contract.scopeType || !slug ? `${contract.scopeType ?? 'project'} ${name}` : name;
  const comma = parts.some((part) => part.open) ? ',' : '';
  return `${line}${comma} in ${where}`;
}

/**
 * The strings with which a contract accounts for the words of a request: counts in digits,
 * types as worded, each count with its type, titles, parent types and ids, the scope and the word that named it.
 * Compare type words with `sameType`/`singular`, numbers after reading number words as digits.
 */
export function contractWords(contract: FishContract): string[] {
  const words: string[] = [];
  for (const entity of contract.entities) {
    // "3 suites" too: a request's "three suites" is the suites' count, not the tests'.
    words.push(String(entity.count), entity.type, `${entity.count} ${entity.type}`, ...(entity.titles ?? []));
    if (entity.parent && !isRefParent(entity.parent)) words.push(entity.parent.type, entity.parent.id);
  }
  if (contract.scopeType) words.push(contract.scopeType);
  if (contract.scope) words.push(contract.scope);
  return [...new Set(words)];
}

/** A contract with every type in its singular words, for comparing two contracts of one request. */
export function canonicalContract(contract: FishContract): FishContract {
  const canonicalType = (type: string) => typeWords(type).join(' ');
  return {
    ...contract,
    entities: contract.entities.map((entity) => ({
      ...entity,
      type: canonicalType(entity.type),
      ...(entity.parent && !isRefParent(entity.parent)
        ? { parent: { type: canonicalType(entity.parent.type), id: entity.parent.id } }
        : {}),
    })),
  };
}
