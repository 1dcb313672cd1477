import { dirname, join } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { RunResult } from '../../core/agent/ending.js';
import { type RunObserver, withRunObserver } from '../../core/agent/run-observer.js';
import { runPlan } from '../../core/agent/run-plan.js';
import { createFailOpen, type FailOpen } from '../../core/fail-open.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { shownUrl } from '../../core/shown-url.js';
import { recipeEnvNames } from '../../packs/http/client/login-recipe.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { executeDataPlan } from './execute-data-plan.js';
import {
  buildFishContext,
  type FishContext,
  type FishContextOptions,
  FishermanInputError,
} from './fish-context.js';
import { MAX_COUNT } from './fish-contract.js';
import { createFishermanAgent } from './fisherman-agent.js';
import { knownTypes } from './known-types.js';
import { dataRequestShape } from './parse-data-request.js';
import { planDataRequest } from './plan-data-request.js';
import { withSpecPlan } from './plan-spec-request.js';
import { followRecipe, keepRecipe, type RecipeOutcome } from './recipes/use-recipes.js';
import { refuseUnmatchedScope } from './refuse-unmatched-scope.js';

export interface PrepareDataOptions extends FishContextOptions {
  request: string;
  ledger: Ledger;
  /** A model or a spec; without one (and without TALLY_MODEL) only the deterministic tier runs. */
  model?: LanguageModelV3 | string;
  /** Name of the login recipe used, for the run's record (never its secrets). */
  loginName?: string;
  maxRetries?: number;
  /** Round cap for the model tier (default 30). */
  maxRounds?: number;
  /** Creates in flight at once in plan runs (default 2); a child always waits for its parent. */
  concurrency?: number;
  /** The project's recipe folder (`.tally/recipes`): model-solved plans are kept and replayed. */
  recipes?: string;
  /**
   * Aborting it (an interrupt) stops the run: no new call starts, calls in flight get
   * `graceMs` (default 5 s) to settle, and the run ends `aborted` with what it made before.
   */
  signal?: AbortSignal;
  graceMs?: number;
  /**
   * Told about every run this call starts (progress, events). Passed rather than scoped with
   * `withRunObserver`: a plan or recipe run then needs no AsyncLocalStorage, whose async hooks
   * cost every promise of a Node < 24 process once enabled (~0.3 ms an entity, issue 22).
   */
  onEvent?: RunObserver;
}

export interface PrepareDataResult extends RunResult {
  tier: 'deterministic' | 'model' | 'recipe';
  /** The marker stamped into every title this run sent. */
  marker: string;
  /** A recipe followed, replaced or saved, when a recipe folder was given. */
  recipe?: RecipeOutcome;
  scope: Scope;
  /** The base URL as it may be shown (`shownUrl`): a userinfo password or a secret query value masked. */
  baseUrl: string;
  /** Why the deterministic tier did not take the request, when it did not. */
  escalation?: string;
  /** Capture files that could not be used, with the reason (never silently ignored). */
  unreadable: { source: string; reason: string }[];
  /** What went wrong after the run ended (a recipe that could not be saved): the run stands. */
  warnings?: string[];
}

/**
 * Prepares test data through the app's own API. The deterministic tier plans common
 * requests without a model; anything else escalates to the model when one is configured,
 * or fails with the exact reason. Every result is verified against the ledger.
 */
export async function prepareData(options: PrepareDataOptions): Promise<PrepareDataResult> {
  const context = await buildFishContext(options);
  // Every run started below scrubs the session's and the configuration's secret values: the
  // plan and recipe runs are handed them (and the observer); the model tier, whose tools may
  // start runs of their own, runs inside the scopes.
  return runFisherman(options, context);
}

async function runFisherman(options: PrepareDataOptions, context: FishContext): Promise<PrepareDataResult> {
  const env = options.env ?? process.env;
  refuseUnmatchedScope(context.scope, context.set.captures);
  const shape = dataRequestShape(options.request, context.scope, knownTypes(context));
  const parsed = 'request' in shape ? shape.request : undefined;
  const agent = createFishermanAgent({
    context,
    ...(parsed ? { request: parsed } : {}),
    ...(options.maxRounds ? { maxRounds: options.maxRounds } : {}),
  });
  const meta = {
    baseUrl: context.baseUrl,
    captures: context.set.sources,
    ...(context.spec ? { specs: context.spec.set.sources } : {}),
    scope: context.scope.path,
    ...(context.scope.fallback ? { scopeFallback: context.scope.note } : {}),
    ...(options.loginName ? { login: options.loginName } : {}),
    // Which variables the login recipe expanded: names only, never their values.
    ...(options.login && recipeEnvNames(options.login).length > 0
      ? { loginEnv: recipeEnvNames(options.login) }
      : {}),
    // `fish cleanup` finds what the run sent by it, even items whose responses never came.
    marker: context.client.marker,
  };
  const planned = parsed
    ? withSpecPlan(planDataRequest(parsed, context.index, context.scope), parsed, context)
    : { error: 'why' in shape && shape.why ? shape.why : notAPlanWhy(options.request) };
  // Files that could not be read (not the routine drops of pages and assets).
  const unreadable = context.set.skipped.filter((skip) => skip.source.endsWith('.request.yaml'));
  const marker = context.client.marker as string;
  // Security: the result is printed (`--json`) and emitted (`--emit`): never a userinfo password.
  const base = { scope: context.scope, baseUrl: shownUrl(context.baseUrl), unreadable, marker };
  const concurrency = options.concurrency ?? 2;
  const { signal } = options;
  const abort = {
    ...(signal ? { signal } : {}),
    ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
  };
  // What a plan or recipe run is handed rather than scoped (see `onEvent`).
  const told = {
    knownSecrets: context.knownSecrets,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  };
  if ('plan' in planned) {
    const result = await runPlan(
      agent,
      options.request,
      executeDataPlan(planned.plan, marker, { concurrency, ...(signal ? { signal } : {}) }),
      { ledger: options.ledger, meta, ...abort, ...told },
    );
    return { ...result, ...base, tier: 'deterministic' };
  }
  // A plan the model found before for this app and shape runs without it.
  const recipes =
    parsed && options.recipes
      ? {
          dir: options.recipes,
          origin: new URL(context.baseUrl).origin,
          scope: context.scope.path,
          request: parsed,
        }
      : undefined;
  const followed = recipes
    ? await followRecipe(recipes, {
        agent,
        task: options.request,
        ledger: options.ledger,
        meta,
        marker,
        concurrency,
        ...abort,
        ...told,
      })
    : {};
  const recipeRun = followed.result
    ? {
        ...followed.result,
        ...base,
        tier: 'recipe' as const,
        escalation: planned.error,
        recipe: followed.outcome,
      }
    : undefined;
  // An interrupted recipe run is the run: nothing else starts after an interrupt.
  if (recipeRun && (recipeRun.status === 'success' || signal?.aborted)) return recipeRun;
  const modelConfigured = options.model !== undefined || Boolean(env.TALLY_MODEL);
  if (modelConfigured) {
    // The model tier alone loads the AI SDK (and OTel through it): ~0.4 s of start-up that a
    // deterministic run would otherwise pay for nothing.
    const { runAgent } = await import('../../core/agent/run-agent.js');
    const modelRun = () =>
      options.ledger.withKnownSecrets(context.knownSecrets, () =>
        runAgent(agent, options.request, {
          ledger: options.ledger,
          env,
          meta: { ...meta, tier: 'model', escalation: planned.error },
          ...(options.model ? { model: options.model } : {}),
          ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
          ...(signal ? { signal } : {}),
        }),
      );
    const { onEvent } = options;
    const result = await (onEvent ? withRunObserver(onEvent, modelRun) : modelRun());
    // The run has ended: saving its recipe may fail, but never takes its result with it.
    const kept = recipes && keepRecipe(recipes, result, options.ledger, options.request, failOpenOf(options));
    const recipe = kept && {
      ...kept,
      ...(recipeRun ? { fellBack: { runId: recipeRun.runId, why: recipeRun.summary } } : {}),
    };
    const warnings = kept?.saveFailed ? [`the recipe was not saved: ${kept.saveFailed}`] : [];
    return {
      ...result,
      ...base,
      tier: 'model',
      escalation: planned.error,
      ...(recipe ? { recipe } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }
  if (recipeRun) return recipeRun;
  // Nothing can try this request: a configuration error (exit 2), not a failed run in the ledger.
  throw new FishermanInputError(
    'FISHERMAN_NEEDS_MODEL',
    `The deterministic tier cannot do this — ${planned.error} — and no model is configured: pass --model (e.g. openai:gpt-4.1-mini) or set TALLY_MODEL to let a model try. Nothing was created.`,
    { request: options.request, escalation: planned.error },
  );
}

/** Fail-opens after a run (a recipe that cannot be saved) go beside the ledger. */
function failOpenOf(options: PrepareDataOptions): FailOpen {
  return createFailOpen({ logPath: join(dirname(options.ledger.path), 'fail-open.jsonl') });
}

/** Verbs that ask for something else than new data: the deterministic tier only creates. */
const OTHER_ACTIONS =
  /^(?:(?:please|kindly|can you|could you|would you)\s+)*(delete|remove|destroy|drop|erase|purge|clear|clean|update|edit|modify|change|rename|move|archive|close|copy|duplicate|clone|list|find|show|get|read|count|check|verify)\b/i;

/** Words that leave a count open ("at least 3 tests"): the deterministic tier makes exact counts only. */
const OPEN_COUNTS =
  'at least|at most|up to|no more than|no fewer than|no less than|not more than|more than|fewer than|less than|or more|or fewer|or less|or so|about|around|approximately|roughly|maximum|minimum|max|min|some|a few|several|many|a couple|a lot|a bunch|a handful|dozens|hundreds'.split(
    '|',
  );
/** Words that single out or leave out some items ("except the last", "the first with 2", "no tests"). */
const SINGLED_OUT =
  'except|but|without|no|none|not|only|half|first|second|last|other|another|rest|remaining'.split('|');
/** Words that spread items over parents ("5 tests split across 2 suites", "3 tests in each of 2 suites"). */
const SPREAD = 'each of|split|across|spread|among|distributed|divided'.split('|');
/** Each kind of word the grammar refuses on purpose, and what it does that the tier does not. */
const UNREAD: [string[], string][] = [
  [OPEN_COUNTS, 'leaves a count open, and the deterministic tier makes exact counts only'],
  [SINGLED_OUT, 'singles out or leaves out some items, which the deterministic tier does not read'],
  [
    SPREAD,
    'spreads items over parents, which the deterministic tier reads only as "N <parent type> with M <type> each"',
  ],
];

/** The first of `phrases` the request says outside its quoted titles, if any. */
function saysPhrase(request: string, phrases: readonly string[]): string | undefined {
  const words = request
    // Curly quotes as \u escapes: the CLI bundle stays ASCII (scripts/ascii-bundle.mjs).
    .replace(/"[^"]*"|\u201c[^\u201d]*\u201d|'[^']*'(?=[\s,;:.!]|$)/gu, ' ')
    .toLowerCase()
    .split(/[\s,;:.!?()]+/u)
    .filter(Boolean);
  const said = ` ${words.join(' ')} `;
  return phrases.find((phrase) => said.includes(` ${phrase} `));
}

/**
 * Why the deterministic tier read no plan from `request`: another action, a count past its
 * limit, a word that leaves a count open or singles out some items (which its grammar refuses
 * on purpose: reading past it would make something else than what was asked), else the form.
 */
function notAPlanWhy(request: string): string {
  const action = OTHER_ACTIONS.exec(request.trim())?.[1]?.toLowerCase();
  if (action)
    return `the request asks to ${action}, and the deterministic tier only creates new items (to undo a run: tally fish cleanup RUN)`;
  const tooMany = (request.match(/\d[\d,_]*/g) ?? [])
    .map((digits) => Number(digits.replace(/[,_]/g, '')))
    .find((count) => count > MAX_COUNT);
  if (tooMany !== undefined)
    return `the request asks for ${tooMany.toLocaleString('en')} of a type, and one run makes at most ${MAX_COUNT.toLocaleString('en')} (split it into several runs)`;
  const form = 'the request is not of the form "N <type> [with M <type> each | in a new <type>]"';
  for (const [phrases, why] of UNREAD) {
    const said = saysPhrase(request, phrases);
    if (said) return `${form}: "${said}" ${why}`;
  }
  return form;
}
