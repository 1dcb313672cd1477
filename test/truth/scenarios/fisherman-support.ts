/**
 * Running Fisherman against a real target on 127.0.0.1 (the demo app, or the small REST app
 * whose ids start at 1), optionally behind the fault proxy, and judging the run by what the
 * target's own API lists before and after.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { type PrepareDataResult, prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import type { SqliteLedger as Ledger } from '../../../src/core/ledger/ledger.js';
import { startDemoApp } from '../../../src/demo-app/server.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { callTool, type ScriptStep } from '../../../src/testing/scripted-model.js';
import { type FaultRule, startFaultProxy } from '../fault-proxy.js';
import {
  BUNDLED_HAR,
  DemoWorld,
  type FishRequest,
  falseHttpClaim,
  falseHttpItems,
  type HttpClaim,
  modelOnlyDemoHar,
  RestWorld,
  restHar,
  unmetFishRequest,
  type World,
} from '../ground-truth.js';
import { startRestApp } from '../rest-app.js';
import {
  attempt,
  type Bag,
  type Outcome,
  outcomeOf,
  Truth,
  type WatchedModel,
  watchedModel,
} from '../scenario.js';

/** Data another user made before the run, through the app's API. */
export type Seed = (world: DemoWorld | RestWorld) => Promise<void>;

/** Seeds the demo app: `create(project, collection, body)` → id. */
export const seedDemo =
  (build: (world: DemoWorld) => Promise<unknown>): Seed =>
  async (world) => {
    await build(world as DemoWorld);
  };

/** Seeds the REST app: `create(collection, body)` → id. */
export const seedRest =
  (build: (world: RestWorld) => Promise<unknown>): Seed =>
  async (world) => {
    await build(world as RestWorld);
  };

/** `rest-upsert`: the REST app answering 200 on create, with POST /posts get-or-create by slug. */
export type AppKind = 'demo' | 'rest' | 'rest-403' | 'rest-upsert';
/** `spec`: no captures — achieve mode from the demo app's own OpenAPI document, with session headers. */
export type HarKind = 'bundled' | 'model-only' | 'rest' | 'rest-model' | 'spec';

export interface Target {
  world: DemoWorld | RestWorld;
  /** Where Fisherman sends its requests (the proxy when faults are injected). */
  baseUrl: string;
  captures: string;
  scope: string | undefined;
  login: typeof DEMO_LOGIN | undefined;
  /** Achieve mode: the OpenAPI documents and the headers that authenticate (no captures, no login). */
  specs?: string[];
  headers?: Record<string, string>;
}

/** A live session of the demo app as headers (cookie + CSRF), the way achieve mode authenticates. */
async function demoSessionHeaders(appUrl: string): Promise<Record<string, string>> {
  const login = await fetch(`${appUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(DEMO_LOGIN.form as Record<string, string>).toString(),
    redirect: 'manual',
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await (await fetch(`${appUrl}/projects`, { headers: { cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1] ?? '';
  return { cookie, 'x-csrf-token': csrf };
}

/** Starts the app (and the proxy), seeds it through its API, and builds the captures. */
export async function openTarget(
  bag: Bag,
  options: {
    app?: AppKind;
    har?: HarKind;
    scope?: string;
    faults?: FaultRule[];
    seed?: Seed;
  },
): Promise<Target> {
  const app = options.app ?? 'demo';
  let appUrl: string;
  let world: DemoWorld | RestWorld;
  if (app === 'demo') {
    const demo = await startDemoApp();
    bag.onClose(() => demo.close());
    appUrl = demo.url;
    world = await DemoWorld.login(appUrl);
  } else {
    const rest = await startRestApp(
      app === 'rest-403'
        ? { missingStatus: 403 }
        : app === 'rest-upsert'
          ? { upsert: true, createStatus: 200 }
          : {},
    );
    bag.onClose(() => rest.close());
    appUrl = rest.url;
    world = new RestWorld(appUrl);
  }
  await options.seed?.(world);
  let baseUrl = appUrl;
  if (options.faults) {
    const proxy = await startFaultProxy(appUrl, options.faults);
    bag.onClose(() => proxy.close());
    baseUrl = proxy.url;
  }
  const dir = bag.tempDir('tally-truth-har-');
  const har = options.har ?? (app === 'demo' ? 'bundled' : 'rest');
  if (har === 'spec')
    return {
      world,
      baseUrl,
      captures: '',
      scope: options.scope ?? '/projects/alpha-shop',
      login: undefined,
      specs: [`${appUrl}/api/openapi.json`],
      headers: await demoSessionHeaders(appUrl),
    };
  const captures =
    har === 'bundled'
      ? BUNDLED_HAR
      : har === 'model-only'
        ? modelOnlyDemoHar(dir)
        : restHar(dir, { opaque: har === 'rest-model' });
  return {
    world,
    baseUrl,
    captures,
    scope: app === 'demo' ? (options.scope ?? '/projects/alpha-shop') : options.scope,
    login: app === 'demo' ? DEMO_LOGIN : undefined,
  };
}

/** The run's marker as Fisherman shows it in the prompt (`… with " · 3fa9c1" (this run's marker)`). */
export function markerIn(model: WatchedModel, call: LanguageModelV3CallOptions): string | undefined {
  const prompt = model.systemPrompt(call);
  for (const line of prompt.split('\n')) {
    if (!/marker/i.test(line)) continue;
    const quoted = /["'`]\s*·\s*([^"'`\s]+)\s*["'`]/.exec(line) ?? /["'`]([0-9a-z]{4,16})["'`]/i.exec(line);
    if (quoted) return quoted[1];
  }
  return undefined;
}

/** A title stamped with the run's marker when the prompt shows one. */
export const stamp = (title: string, marker: string | undefined) => (marker ? `${title} · ${marker}` : title);

export interface FishSpec {
  request: string;
  /** The request's structure, as the scenario knows it (never as Tally parsed it). */
  expect: FishRequest;
  app?: AppKind;
  har?: HarKind;
  scope?: string;
  faults?: FaultRule[];
  seed?: Seed;
  /** A model script; without one only the deterministic tier runs. */
  steps?: (model: () => WatchedModel) => ScriptStep[];
  /** Extra ground truth (a scenario's own knowledge, e.g. who made a lookalike). */
  extra?: (before: World, after: World) => string[];
}

export interface FishRun {
  target: Target;
  ledger: Ledger;
  result: PrepareDataResult | Error;
  before: World;
  after: World;
  model?: WatchedModel;
}

export async function runFish(bag: Bag, spec: FishSpec): Promise<FishRun> {
  const target = await openTarget(bag, spec);
  const ledger = bag.ledger();
  const before = await target.world.snapshot();
  let model: WatchedModel | undefined;
  if (spec.steps) {
    const holder: { model?: WatchedModel } = {};
    model = watchedModel(spec.steps(() => holder.model as WatchedModel));
    holder.model = model;
  }
  const result = await attempt(() =>
    prepareData({
      request: spec.request,
      captures: target.captures ? [target.captures] : [],
      ...(target.specs ? { specs: target.specs } : {}),
      ...(target.headers ? { headers: target.headers } : {}),
      ...(target.scope ? { scope: target.scope } : {}),
      baseUrl: target.baseUrl,
      ...(target.login ? { login: target.login } : {}),
      ledger,
      env: {},
      maxRetries: 0,
      ...(model ? { model } : {}),
    }),
  );
  const after = await target.world.snapshot();
  return { target, ledger, result, before, after, ...(model ? { model } : {}) };
}

/** Ground truth of a Fisherman run: request met, the model's claims true, Tally's items true. */
export function fishTruth(run: FishRun, spec: FishSpec): Truth {
  const truth = new Truth().add(unmetFishRequest(run.before, run.after, spec.expect));
  truth.add(spec.extra?.(run.before, run.after) ?? []);
  if (run.model) {
    const finish = run.model.lastFinish<{ created?: HttpClaim[] }>();
    truth.check(finish !== undefined, 'the agent never reported (no finish)');
    const marker = run.model.calls[0] ? markerIn(run.model, run.model.calls[0]) : undefined;
    for (const claim of finish?.created ?? [])
      truth.add(falseHttpClaim(run.before, run.after, claim, marker));
  }
  if (!(run.result instanceof Error))
    truth.add(falseHttpItems(run.before, run.after, run.result.verified as Record<string, unknown>[]));
  return truth;
}

export async function fishOutcome(bag: Bag, spec: FishSpec): Promise<Outcome> {
  const run = await runFish(bag, spec);
  return outcomeOf(run.result, run.ledger, fishTruth(run, spec), { agent: 'fisherman' });
}

// ---------------------------------------------------------------------------------------------
// Script pieces for the model tier

export const post = (path: string, body: unknown, text?: string) =>
  callTool('request', { method: 'POST', path, body }, text);
export const request = (method: string, path: string, body?: unknown, text?: string) =>
  callTool('request', { method, path, ...(body !== undefined ? { body } : {}) }, text);
export const lookup = (path: string, text?: string) => callTool('lookup', { path }, text);
export const fishFinish = (
  summary: string,
  created: { type: string; id: string | number; title?: string }[],
  failed: { type: string; reason: string }[] = [],
) => callTool('finish', { summary, created, failed });
export const giveUp = callTool('stop', { reason: 'My report was not accepted; stopping.' });

/** A step built when the model is called, from the marker the prompt shows. */
export function marked(
  model: () => WatchedModel,
  build: (marker: string | undefined) => ScriptStep,
): ScriptStep {
  return (call: LanguageModelV3CallOptions) => {
    const step = build(markerIn(model(), call));
    if (typeof step === 'function' || 'error' in step) throw new Error('marked() builds plain steps only');
    return step;
  };
}
