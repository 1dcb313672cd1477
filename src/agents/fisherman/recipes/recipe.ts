import { createHash } from 'node:crypto';
import { z } from 'zod';
import { builtOnce } from '../../../core/built-once.js';
import { sameType, singular, typeWords } from '../../../core/type-words.js';
import type { ExecutablePlan } from '../execute-data-plan.js';
import type { DataRequest } from '../parse-data-request.js';
import type { CreatedNode } from './created-tree.js';

const TITLE_FIELDS = /^(title|name|label|subject|heading|summary)$/i;
/** Written where a fresh value goes; the executor fills title-like fields per item. */
export const FRESH = '{{fresh}}';
export const PARENT = '{{parent}}';

// Built on first use: only a run that reads a stored recipe validates one, and a `tally fish`
// without one saved (or with --no-recipes) does not pay for building it (issue 22).
/** What a stored recipe must hold to be used (a file that does not fit is refused: RECIPE_INVALID). */
export const recipeSchema = builtOnce(buildRecipeSchema);

function buildRecipeSchema() {
  const linkSchema = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('path'), index: z.number().int().min(0) }),
    z.object({ kind: z.literal('body'), field: z.string().min(1), numeric: z.boolean() }),
  ]);

  const stepSchema = z.object({
    type: z.string().min(1),
    path: z.string().startsWith('/'),
    body: z.record(z.string(), z.unknown()),
    link: linkSchema.optional(),
  });

  return z.object({
    version: z.literal(1),
    id: z.string().regex(/^[0-9a-f]{12}$/),
    origin: z.string(),
    scope: z.string(),
    shape: z.string(),
    request: z.string(),
    createdAt: z.string(),
    fromRun: z.string(),
    /** The parent items go into ("3 tests" → a suite); with `id`, always that one. */
    container: stepSchema.extend({ id: z.string().optional() }).optional(),
    parent: stepSchema,
    child: stepSchema.optional(),
  });
}

export type Recipe = z.infer<ReturnType<typeof buildRecipeSchema>>;
type Step = Recipe['parent'];

/**
 * `suite>test`, `test@suite` (into a named suite): the request's types, never its counts, each
 * as its singular words (`user groups`, `user-groups` and `userGroups` are one `user-group`).
 */
export function requestShape(request: DataRequest): string {
  const key = (type: string) => typeWords(type).join('-');
  const types = [request.type, ...(request.children ? [request.children.type] : [])].map(key);
  return `${types.join('>')}${request.parent ? `@${key(request.parent.type)}` : ''}`;
}

/** One recipe per app origin, scope and shape: a new success of the same shape replaces it. */
export function recipeId(origin: string, scope: string, shape: string): string {
  return createHash('sha256').update(`${origin}\n${scope}\n${shape}`).digest('hex').slice(0, 12);
}

function template(node: CreatedNode, link?: Step['link']): Step {
  const body = structuredClone(node.body);
  for (const key of Object.keys(body))
    if (TITLE_FIELDS.test(key) && typeof body[key] === 'string') body[key] = FRESH;
  let path = node.path;
  if (link?.kind === 'body') body[link.field] = PARENT;
  if (link?.kind === 'path') {
    const segments = path.split('/');
    segments[link.index + 1] = PARENT;
    path = segments.join('/');
  }
  return { type: node.type, path, body, ...(link ? { link } : {}) };
}

/**
 * The recipe a successful run followed, from its created tree: the first item of each
 * requested type as the template, the links the system observed. Undefined, with the
 * reason, when the tree does not have the request's structure.
 */
export function deriveRecipe(
  tree: CreatedNode[],
  request: DataRequest,
  where: { origin: string; scope: string; text: string; runId: string; now?: Date },
): { recipe: Recipe } | { why: string } {
  const ofType = (type: string) => tree.filter((node) => sameType(type, node.type));
  const parents = ofType(request.type);
  const first = parents[0];
  if (!first || parents.length !== request.count)
    return { why: `the run created ${parents.length} ${request.type}, not ${request.count}` };
  let container: Recipe['container'];
  if (first.parent) {
    const holder = tree[first.parent.index] as CreatedNode;
    container = {
      ...template(holder),
      link: first.parent.link,
      ...(request.parent ? { id: request.parent.id } : {}),
    };
  } else if (request.parent) {
    return {
      why: `the ${request.type} are not linked to ${request.parent.type} ${request.parent.id} in a way the ledger shows`,
    };
  }
  let child: Step | undefined;
  if (request.children) {
    const children = ofType(request.children.type);
    const linked = children.find(
      (node) => node.parent && parents.includes(tree[node.parent.index] as CreatedNode),
    );
    if (!linked?.parent || children.length !== request.count * request.children.count)
      return {
        why: `the ${request.children.type} the run created are not ${request.children.count} per ${singular(request.type)}, each linked to one`,
      };
    child = template(linked, linked.parent.link);
  }
  const shape = requestShape(request);
  return {
    recipe: {
      version: 1,
      id: recipeId(where.origin, where.scope, shape),
      origin: where.origin,
      scope: where.scope,
      shape,
      request: where.text,
      createdAt: (where.now ?? new Date()).toISOString(),
      fromRun: where.runId,
      ...(container ? { container } : {}),
      parent: template(first, container?.link),
      ...(child ? { child } : {}),
    },
  };
}

/** A recipe as a plan the deterministic executor runs, with this request's counts. */
export function recipePlan(recipe: Recipe, request: DataRequest): ExecutablePlan | { error: string } {
  if (request.children && !recipe.child) return { error: 'the recipe has no child step' };
  const example = (step: Step) => ({ path: step.path, requestBody: step.body });
  const { container, child } = recipe;
  const containerId = request.parent?.id ?? container?.id;
  return {
    parent: { type: recipe.parent.type, count: request.count, example: example(recipe.parent) },
    ...(child?.link && request.children
      ? {
          child: {
            type: child.type,
            count: request.children.count,
            example: example(child),
            link: child.link,
          },
        }
      : {}),
    ...(container?.link
      ? {
          container: {
            type: container.type,
            example: example(container),
            link: container.link,
            ...(containerId !== undefined ? { id: containerId } : {}),
          },
        }
      : {}),
  };
}
