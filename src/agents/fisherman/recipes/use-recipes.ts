import type { Agent } from '../../../core/agent/agent-definition.js';
import type { RunResult } from '../../../core/agent/ending.js';
import type { RunObserver } from '../../../core/agent/run-observer.js';
import { runPlan } from '../../../core/agent/run-plan.js';
import { errorMessage } from '../../../core/errors.js';
import type { FailOpen } from '../../../core/fail-open.js';
import type { Ledger } from '../../../core/ledger/ledger.js';
import { executeDataPlan } from '../execute-data-plan.js';
import type { DataRequest } from '../parse-data-request.js';
import { createdTree } from './created-tree.js';
import { deriveRecipe, recipeId, recipePlan, requestShape } from './recipe.js';
import { RecipeStore, RecipeStoreError } from './recipe-store.js';
// Registers recipe-unwritable.
import '../fisherman-fail-open-reasons.js';

/** What happened with recipes in one `prepareData` call. */
export interface RecipeOutcome {
  id: string;
  shape: string;
  /** This run followed the recipe (0 model calls). */
  used?: boolean;
  /** The recipe was run and failed; the model took over (this is that run). */
  fellBack?: { runId: string; why: string };
  /** The model's successful plan was saved (or replaced the broken one). */
  saved?: boolean;
  /** Why no recipe was used or saved. */
  why?: string;
  /** The model's plan could not be written (the run's result stands; a `recipe-unwritable` fail-open). */
  saveFailed?: string;
}

export interface RecipeScope {
  /** The project's recipe folder (`.tally/recipes`). */
  dir: string;
  /** The app's origin and the scope path: recipes never cross apps or projects. */
  origin: string;
  scope: string;
  request: DataRequest;
}

const keyOf = (where: RecipeScope) => {
  const shape = requestShape(where.request);
  return { shape, id: recipeId(where.origin, where.scope, shape) };
};

/** Runs the recipe for this app and request shape, if there is one, as a recorded plan run. */
export async function followRecipe(
  where: RecipeScope,
  run: {
    agent: Agent;
    task: string;
    ledger: Ledger;
    meta: Record<string, unknown>;
    marker: string;
    concurrency?: number;
    signal?: AbortSignal;
    graceMs?: number;
    /** Handed to the run (see PrepareDataOptions.onEvent). */
    knownSecrets?: readonly string[];
    onEvent?: RunObserver;
  },
): Promise<{ result?: RunResult; outcome?: RecipeOutcome }> {
  const { shape, id } = keyOf(where);
  let recipe: ReturnType<RecipeStore['get']>;
  try {
    recipe = new RecipeStore(where.dir).get(id);
  } catch (error) {
    // An unreadable recipe (or folder) must not stop the model from doing the job (and replacing it).
    if (!(error instanceof RecipeStoreError) && errnoOf(error) === undefined) throw error;
    return { outcome: { id, shape, why: errorMessage(error) } };
  }
  if (!recipe) return {};
  const plan = recipePlan(recipe, where.request);
  if ('error' in plan) return { outcome: { id, shape, why: plan.error } };
  const result = await runPlan(
    run.agent,
    run.task,
    executeDataPlan(plan, run.marker, {
      ...(run.concurrency ? { concurrency: run.concurrency } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
    }),
    {
      ledger: run.ledger,
      meta: { ...run.meta, tier: 'recipe', recipe: id },
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.graceMs !== undefined ? { graceMs: run.graceMs } : {}),
      ...(run.knownSecrets ? { knownSecrets: run.knownSecrets } : {}),
      ...(run.onEvent ? { onEvent: run.onEvent } : {}),
    },
  );
  return { result, outcome: { id, shape, used: true } };
}

/**
 * Saves (or replaces) the recipe a successful model run followed, derived from its ledger.
 * Called after the run ended, so it never throws: a recipe that cannot be written (a missing
 * or refused folder, a full disk) is a `recipe-unwritable` fail-open and `saveFailed`.
 */
export function keepRecipe(
  where: RecipeScope,
  result: RunResult,
  ledger: Ledger,
  text: string,
  failOpen?: FailOpen,
): RecipeOutcome {
  const { shape, id } = keyOf(where);
  if (result.status !== 'success') return { id, shape, why: 'not saved: the run did not meet the request' };
  try {
    const derived = deriveRecipe(createdTree(ledger.entries(result.runId)), where.request, {
      origin: where.origin,
      scope: where.scope,
      text,
      runId: result.runId,
    });
    if ('why' in derived) return { id, shape, why: `not saved: ${derived.why}` };
    new RecipeStore(where.dir).save(derived.recipe);
    return { id, shape, saved: true };
  } catch (error) {
    failOpen?.('recipes', 'recipe-unwritable', result.runId);
    const message = errorMessage(error);
    return { id, shape, why: `not saved: ${message}`, saveFailed: message };
  }
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && (error as { syscall?: unknown }).syscall !== undefined
    ? code
    : undefined;
}
