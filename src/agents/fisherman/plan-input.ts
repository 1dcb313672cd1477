import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { sameType, typeWords } from '../../core/type-words.js';
import {
  type ContractEntity,
  contractIssues,
  contractWords,
  type FishContract,
  MAX_COUNT,
} from './fish-contract.js';

const text = (max: number) => z.string().trim().min(1).max(max);

function buildPlanEntity() {
  return z
    .object({
      ref: text(60)
        .optional()
        .describe(
          'A short name for this entity, for parentRef (default: its type in the singular, e.g. "suite").',
        ),
      type: text(100).describe('The type as the request words it: "suites", "test cases", "milestone".'),
      count: z
        .number()
        .int()
        .min(1)
        .max(MAX_COUNT)
        .describe('How many: per parent item when `each` is true ("3 tests each"), else in total.'),
      parentRef: text(60)
        .optional()
        .describe(
          'The ref of the entity of this plan whose new items these go under ("2 suites with 3 tests each").',
        ),
      each: z
        .boolean()
        .optional()
        .describe(
          'With parentRef: true (default) when count is per parent item, false when it is the total.',
        ),
      parentType: text(100)
        .optional()
        .describe('For an EXISTING parent the request names by id ("5 tests in suite 101"): its type.'),
      parentId: text(200).optional().describe('With parentType: the id the request gives ("101").'),
      titles: z
        .array(text(200))
        .max(MAX_COUNT)
        .optional()
        .describe('Titles the request quotes for these items, exactly as written (never invented ones).'),
    })
    .strict();
}

type PlanEntity = z.infer<ReturnType<typeof buildPlanEntity>>;

function entityIssues(entity: PlanEntity): string[] {
  const issues: string[] = [];
  if (entity.parentRef && (entity.parentType || entity.parentId))
    issues.push(
      `${entity.type}: give parentRef (a new parent) or parentType+parentId (an existing one), not both`,
    );
  if (Boolean(entity.parentType) !== Boolean(entity.parentId))
    issues.push(`${entity.type}: parentType and parentId go together`);
  if (entity.each !== undefined && !entity.parentRef) issues.push(`${entity.type}: each needs a parentRef`);
  return issues;
}

// Built on first use: only the model's `plan` tool reads it; the deterministic tier never does (issue 22).
/**
 * The input of the model's `plan` tool: the request's structure, stated before the first
 * create. Flat fields (parentRef / parentType+parentId / each) rather than unions, which
 * models fill more reliably; `contractFromPlan` turns it into a `FishContract`.
 */
export const planInputSchema = builtOnce(buildPlanInputSchema);

function buildPlanInputSchema() {
  return z
    .object({
      entities: z
        .array(buildPlanEntity())
        .min(1)
        .max(50)
        .describe('Every kind of thing the request asks to create, parents before their children.'),
      scope: text(200)
        .optional()
        .describe(
          'The project (or workspace…) the request names, as written ("in project alpha-shop" → "alpha-shop"); omit when it names none.',
        ),
      scopeType: text(60).optional().describe('The word that named the scope: "project", "workspace".'),
    })
    .strict()
    .superRefine((input, context) => {
      const issues = input.entities.flatMap(entityIssues);
      if (issues.length === 0) issues.push(...contractIssues(contractFromPlan(input)));
      for (const issue of issues) context.addIssue({ code: 'custom', message: issue });
    });
}

export type PlanInput = z.infer<ReturnType<typeof buildPlanInputSchema>>;

const refOf = (type: string) => typeWords(type).join('-') || 'item';

/** The contract the model stated. A parentRef may also name the parent by its type (`suites` → ref `suite`). */
export function contractFromPlan(input: PlanInput): FishContract {
  const used = new Set<string>();
  const refs = input.entities.map((entity) => {
    let ref = entity.ref ?? refOf(entity.type);
    for (let n = 2; used.has(ref); n++) ref = `${entity.ref ?? refOf(entity.type)}-${n}`;
    used.add(ref);
    return ref;
  });
  const resolve = (parentRef: string) => {
    if (used.has(parentRef)) return parentRef;
    const byType = input.entities.flatMap((entity, index) =>
      refOf(entity.type) === refOf(parentRef) ? [refs[index] as string] : [],
    );
    return byType.length === 1 ? (byType[0] as string) : parentRef;
  };
  const entities = input.entities.map((entity, index): ContractEntity => {
    const contractEntity: ContractEntity = {
      ref: refs[index] as string,
      type: entity.type.toLowerCase(),
      count: entity.count,
    };
    if (entity.parentRef) {
      contractEntity.parent = { ref: resolve(entity.parentRef) };
      contractEntity.perParent = entity.each ?? true;
    } else if (entity.parentType && entity.parentId)
      contractEntity.parent = {
        type: entity.parentType.toLowerCase(),
        id: entity.parentId.replace(/^#/, ''),
      };
    if (entity.titles?.length) contractEntity.titles = [...entity.titles];
    return contractEntity;
  });
  return {
    entities,
    ...(input.scope ? { scope: input.scope } : {}),
    ...(input.scopeType ? { scopeType: input.scopeType.toLowerCase() } : {}),
  };
}

// Curly quotes and dashes as \u escapes: the CLI bundle stays ASCII (scripts/ascii-bundle.mjs).
const QUOTED =
  /"[^"]*"|\u201c[^\u201d]*\u201d|\u201e[^\u201c]*\u201c|\u00ab[^\u00bb]*\u00bb|\u2018[^\u2019]*\u2019|(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])/gu;

function namesKnown(phrase: string, knownTypes: readonly string[], single: boolean): boolean {
  const said = typeWords(phrase).join(' ');
  return knownTypes.some(
    (known) => typeWords(known).join(' ') === said || (single && sameType(phrase, known)),
  );
}

const NEGATIONS = new Set(['no', 'not', 'without', 'nor', 'zero', 'none']);
const BETWEEN = new Set(['any', 'other', 'more', 'new', 'extra']);

/** "but no tests", "without any tests": the request asks for none, so no plan must name them. */
function negated(words: readonly string[], at: number): boolean {
  const before = words[at - 1]?.toLowerCase();
  if (before === undefined) return false;
  if (NEGATIONS.has(before)) return true;
  return BETWEEN.has(before) && NEGATIONS.has(words[at - 2]?.toLowerCase() ?? '');
}

/**
 * The words of a request that name a type the app knows (`knownTypes`: the endpoint
 * index's resource names), outside quoted titles, longest phrase first (`test cases` for a
 * `test_cases` collection), each once, but none the request negates ("but no tests"). A
 * contract must account for every one of them.
 */
export function fishTypeWords(requestText: string, knownTypes: readonly string[]): string[] {
  const words = requestText
    .normalize('NFC')
    .replace(QUOTED, ' ')
    .split(/[^\p{L}\p{N}_-]+/u)
    .filter((word) => /^\p{L}/u.test(word));
  const found: string[] = [];
  for (let at = 0; at < words.length; ) {
    const length = [3, 2, 1].find(
      (size) =>
        at + size <= words.length && namesKnown(words.slice(at, at + size).join(' '), knownTypes, size === 1),
    );
    if (length === undefined) {
      at++;
      continue;
    }
    const phrase = words
      .slice(at, at + length)
      .join(' ')
      .toLowerCase();
    if (negated(words, at)) {
      at += length;
      continue;
    }
    if (!found.some((earlier) => typeWords(earlier).join(' ') === typeWords(phrase).join(' ')))
      found.push(phrase);
    at += length;
  }
  return found;
}

/** The request's type words (`fishTypeWords`) that the contract does not account for. */
export function typeWordsMissing(
  requestText: string,
  contract: FishContract,
  knownTypes: readonly string[],
): string[] {
  const accounted = contractWords(contract);
  return fishTypeWords(requestText, knownTypes).filter(
    (word) => !accounted.some((said) => sameType(word, said) || sameType(said, word)),
  );
}
