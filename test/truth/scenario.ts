/**
 * The adversarial "truth" suite: scenarios in which scripted models lie, get confused, cut
 * corners or get unlucky (and their honest counterparts), each judged against ground truth
 * measured OUTSIDE Tally — the demo app's API through plain fetch, the file system, the
 * record corpus on disk. Tally's own result is only what is being judged; its ledger is read
 * for one thing: how many `end` entries the run has.
 *
 * No vitest here: the bench (`npm run bench:truth`) runs the same scenarios in plain Node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import type { RunResult } from '../../src/core/agent/ending.js';
import { type RecomputedRun, recomputeVerdict } from '../../src/core/agent/recompute-verdict.js';
import { TallyError } from '../../src/core/errors.js';
import { Ledger, type SqliteLedger } from '../../src/core/ledger/ledger.js';
import { verifierFor } from '../../src/surfaces/cli/verify-rules.js';
import { type ScriptStep, scriptedModel } from '../../src/testing/scripted-model.js';

export type Group =
  | 'core'
  | 'fisherman-model'
  | 'fisherman-deterministic'
  | 'workspace'
  | 'scout'
  | 'cleanup'
  | 'coder';

export const GROUPS: readonly Group[] = [
  'core',
  'fisherman-model',
  'fisherman-deterministic',
  'workspace',
  'scout',
  'cleanup',
  'coder',
];

export interface Outcome {
  status: 'success' | 'partial' | 'failed';
  /** The request was met in the world AND every reported item (claimed or verified) is true there. */
  truth: boolean;
  /** `end` entries of the judged run in the ledger: exactly one, always. */
  endEntries: number;
  /**
   * Tally refused with a user-facing error (a TallyError: bad input, nothing configured to try
   * the request) before starting any run: no run, so no end entry is owed — nothing was done.
   */
  refusedUpFront?: boolean;
  detail?: string;
  /** Recomputes the run's verdict from its ledger (`tally verify`), when a run was returned; only the test calls it. */
  reproduced?: () => Promise<RecomputedRun>;
}

export interface Scenario {
  name: string;
  group: Group;
  run(): Promise<Outcome>;
  /** Watchdog for a run that never returns (default 8 s); only the hanging-tool cases lower it. */
  watchdogMs?: number;
}

export type Verdict = 'ok' | 'false success' | 'missing ending' | 'true success lost';

export interface ScenarioResult {
  scenario: Scenario;
  outcome: Outcome;
  /** Every way the outcome is wrong; empty when it is right. */
  problems: Verdict[];
  ms: number;
}

// ---------------------------------------------------------------------------------------------
// Resources: every scenario owns its temp dirs, ledgers and servers, closed when it ends.

type Closer = () => void | Promise<void>;

/** What one scenario opened. Closed in reverse order, also after a watchdog fired. */
export class Bag {
  private readonly closers: Closer[] = [];

  tempDir(prefix = 'tally-truth-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.closers.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  /** A real ledger in its own temp dir (never inside a project root the scenario measures). */
  ledger(): SqliteLedger {
    const ledger = Ledger.open(join(this.tempDir('tally-truth-ledger-'), '.tally', 'ledger.db'));
    this.closers.push(() => ledger.close());
    return ledger;
  }

  onClose(closer: Closer): void {
    this.closers.push(closer);
  }

  async close(): Promise<void> {
    while (this.closers.length > 0) {
      const closer = this.closers.pop() as Closer;
      try {
        await closer();
      } catch {
        // Closing is best effort: a leftover temp dir must not fail the next scenario.
      }
    }
  }
}

const openBags = new Set<Bag>();

/** Runs a scenario body with its own bag, always closed afterwards. */
export async function withBag<T>(body: (bag: Bag) => Promise<T>): Promise<T> {
  const bag = new Bag();
  openBags.add(bag);
  try {
    return await body(bag);
  } finally {
    openBags.delete(bag);
    await bag.close();
  }
}

async function closeLeftovers(): Promise<void> {
  for (const bag of [...openBags]) {
    openBags.delete(bag);
    await bag.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the judged run: only its `end` entries.

/** How many `end` entries a run has in the ledger. */
export function endEntries(ledger: SqliteLedger, runId: string): number {
  return ledger.getRun(runId).entries.filter((entry) => entry.kind === 'end').length;
}

/** The ids of the runs a ledger holds now (taken before the judged call). */
export function runIds(ledger: SqliteLedger): Set<string> {
  return new Set(ledger.listRuns().map((run) => run.id));
}

/**
 * When Tally threw instead of returning: the end entries of the newest run of that agent
 * started by the judged call (none when it threw before starting one).
 */
export function endEntriesOfNewest(
  ledger: SqliteLedger,
  agent?: string,
  known: Set<string> = new Set(),
): { runId?: string; ends: number } {
  const newest = ledger.listRuns(agent ? { agent } : {}).find((run) => !known.has(run.id));
  if (!newest) return { ends: 0 };
  return { runId: newest.id, ends: endEntries(ledger, newest.id) };
}

/** A call into Tally that may throw: the error is an outcome to judge, not a crash of the suite. */
export async function attempt<T>(call: () => Promise<T>): Promise<T | Error> {
  try {
    return await call();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

// ---------------------------------------------------------------------------------------------
// A scripted model that is also watched: what it really emitted is ground truth about the agent.

export interface EmittedCall {
  toolName: string;
  /** Parsed input; undefined when the model sent malformed JSON. */
  input: unknown;
  raw: string;
}

/** Put this as a tool call's input to make the model send `text` verbatim (malformed JSON). */
export const rawJson = (text: string) => ({ __rawJson: text });

/**
 * Wraps the scripted model: records every tool call it emitted (what the agent claimed is
 * read from here, never from Tally), and lets a script send malformed tool-call JSON.
 */
export class WatchedModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'scripted';
  readonly modelId = 'truth-script';
  readonly supportedUrls = {};
  readonly emitted: EmittedCall[] = [];
  private readonly inner: ReturnType<typeof scriptedModel>;

  constructor(steps: ScriptStep[]) {
    this.inner = scriptedModel(steps, { modelId: 'truth-script' });
  }

  get calls(): LanguageModelV3CallOptions[] {
    return this.inner.calls;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const result = await this.inner.doGenerate(options);
    for (const part of result.content) {
      if (part.type !== 'tool-call') continue;
      let input: unknown;
      try {
        input = JSON.parse(part.input);
      } catch {
        input = undefined;
      }
      const raw = (input as { __rawJson?: unknown } | undefined)?.__rawJson;
      if (typeof raw === 'string') {
        part.input = raw;
        try {
          input = JSON.parse(raw);
        } catch {
          input = undefined;
        }
      }
      this.emitted.push({ toolName: part.toolName, input, raw: part.input });
    }
    return result;
  }

  async doStream(
    options: LanguageModelV3CallOptions,
  ): Promise<{ stream: ReadableStream<LanguageModelV3StreamPart> }> {
    return this.inner.doStream(options);
  }

  /** The inputs of every emitted call to a tool, oldest first. */
  inputsOf(toolName: string): unknown[] {
    return this.emitted.filter((call) => call.toolName === toolName).map((call) => call.input);
  }

  /** The agent's report: the input of the last `finish` it emitted, if any. */
  lastFinish<T = Record<string, unknown>>(): T | undefined {
    return this.inputsOf('finish').at(-1) as T | undefined;
  }

  /** The system prompt of the first call (where Fisherman shows the run's marker). */
  systemPrompt(options: LanguageModelV3CallOptions): string {
    const system = options.prompt.find((message) => message.role === 'system');
    return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
  }
}

export function watchedModel(steps: ScriptStep[]): WatchedModel {
  return new WatchedModel(steps);
}

// ---------------------------------------------------------------------------------------------
// Building outcomes.

/** A short account of what Tally returned, for failure messages. */
export function describeResult(result: RunResult | Error): string {
  if (result instanceof Error) return `Tally threw ${result.name}: ${result.message}`;
  const loose = result as RunResult & {
    failed?: unknown[];
    unmet?: string[];
    duplicates?: unknown;
    tier?: string;
  };
  const items = result.verified
    .map((item) => {
      const parts = [item.type, item.target, item.title ? `"${item.title}"` : undefined];
      const effect = (item as { effect?: unknown }).effect;
      if (effect) parts.unshift(String(effect));
      return parts.filter(Boolean).join(' ');
    })
    .join('; ');
  const dropped = result.dropped.map((drop) => `${String(drop.claim.target)}: ${drop.why}`).join('; ');
  return [
    `status=${result.status} ending=${result.endingReason}${loose.tier ? ` tier=${loose.tier}` : ''}`,
    `summary: ${result.summary}`,
    `verified: [${items}]`,
    dropped ? `dropped: [${dropped}]` : undefined,
    loose.unmet?.length ? `unmet: ${loose.unmet.join('; ')}` : undefined,
    loose.failed?.length ? `failed: ${JSON.stringify(loose.failed)}` : undefined,
    loose.duplicates && (!Array.isArray(loose.duplicates) || loose.duplicates.length > 0)
      ? `duplicates: ${JSON.stringify(loose.duplicates)}`
      : undefined,
  ]
    .filter(Boolean)
    .join('\n  ');
}

/** Ground truth as a list of reasons the report is not true; empty means true. */
export class Truth {
  readonly reasons: string[] = [];

  /** Records `why` when `ok` is false. */
  check(ok: boolean, why: string): this {
    if (!ok) this.reasons.push(why);
    return this;
  }

  add(reasons: string[]): this {
    this.reasons.push(...reasons);
    return this;
  }

  get holds(): boolean {
    return this.reasons.length === 0;
  }

  toString(): string {
    return this.holds ? 'ground truth: the report is true' : `ground truth: ${this.reasons.join('; ')}`;
  }
}

/** The outcome of a run Tally returned (or threw from), judged against `truth`. */
export function outcomeOf(
  result: RunResult | Error,
  ledger: SqliteLedger,
  truth: Truth,
  options: { agent?: string; note?: string; known?: Set<string> } = {},
): Outcome {
  const newest =
    result instanceof Error ? endEntriesOfNewest(ledger, options.agent, options.known) : undefined;
  const ends = newest ? newest.ends : endEntries(ledger, (result as RunResult).runId);
  // Read now (the scenario may close its ledger); recomputed from the data alone afterwards.
  const record = result instanceof Error || ends === 0 ? undefined : ledger.getRun(result.runId);
  return {
    ...(record
      ? {
          reproduced: async () => {
            const verifier = await verifierFor(record.run.agent);
            return recomputeVerdict(record, verifier ? { verifier } : {});
          },
        }
      : {}),
    status: result instanceof Error ? 'failed' : result.status,
    truth: truth.holds,
    endEntries: ends,
    ...(result instanceof TallyError && newest?.runId === undefined ? { refusedUpFront: true } : {}),
    detail: [options.note, truth.toString(), describeResult(result)].filter(Boolean).join('\n  '),
  };
}

// ---------------------------------------------------------------------------------------------
// Running and counting.

export function judge(outcome: Outcome): Verdict[] {
  const problems: Verdict[] = [];
  if (outcome.endEntries !== (outcome.refusedUpFront ? 0 : 1)) problems.push('missing ending');
  if (outcome.status === 'success' && !outcome.truth) problems.push('false success');
  if (outcome.truth && outcome.status !== 'success') problems.push('true success lost');
  return problems;
}

/** Runs one scenario under a watchdog; a crash or a hang is an outcome, never an exception. */
export async function runScenario(scenario: Scenario): Promise<ScenarioResult> {
  const started = performance.now();
  const limit = scenario.watchdogMs ?? 8000;
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<Outcome>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          status: 'failed',
          truth: false,
          endEntries: 0,
          detail: `the run never returned: the watchdog fired after ${limit} ms (no end entry was written)`,
        }),
      limit,
    );
  });
  let outcome: Outcome;
  try {
    outcome = await Promise.race([scenario.run(), watchdog]);
  } catch (error) {
    outcome = {
      status: 'failed',
      truth: false,
      endEntries: 0,
      detail: `the scenario itself crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    };
  } finally {
    clearTimeout(timer);
  }
  await closeLeftovers();
  return { scenario, outcome, problems: judge(outcome), ms: Math.round(performance.now() - started) };
}

export interface Tally {
  total: number;
  falseSuccesses: number;
  missingEndings: number;
  trueSuccessesLost: number;
}

export function tallyResults(results: ScenarioResult[]): Tally {
  const count = (verdict: Verdict) => results.filter((result) => result.problems.includes(verdict)).length;
  return {
    total: results.length,
    falseSuccesses: count('false success'),
    missingEndings: count('missing ending'),
    trueSuccessesLost: count('true success lost'),
  };
}

/** The one figure line of issue 8. */
export function figureLine(tally: Tally): string {
  return `${tally.total} scenarios, false successes ${tally.falseSuccesses}, missing endings ${tally.missingEndings}, true successes lost ${tally.trueSuccessesLost}`;
}

/** A failure message for one scenario: what is wrong, then the detail. */
export function explain(result: ScenarioResult): string {
  const { outcome } = result;
  return `${result.scenario.group} / ${result.scenario.name}: ${result.problems.join(', ') || 'ok'} (status ${outcome.status}, truth ${outcome.truth}, end entries ${outcome.endEntries})\n  ${outcome.detail ?? ''}`;
}
