import { dirname, join } from 'node:path';
import { type NetEffects, netEffects } from '../effects.js';
import { errorMessage } from '../errors.js';
import { createFailOpen, type FailOpen } from '../fail-open.js';
import { unresolvedIntents, unresolvedIntentWords } from '../intents.js';
import type { LedgerEntry } from '../ledger/entry.js';
import type { Ledger, RunRecorder } from '../ledger/ledger.js';
import { observedRecorder } from '../ledger/recording-ledger.js';
import type { Agent } from './agent-definition.js';
import { evidenceView, itemFromNet } from './claims.js';
import { contractProblems, contractRecord, type RequestContract } from './contract.js';
import type { RunCounts, RunResult, VerifiedItem } from './ending.js';
import {
  combineObservers,
  currentRunObserver,
  guardedObserver,
  type RunEvent,
  type RunObserver,
} from './run-observer.js';
import type { ReviewOutcome } from './run-review.js';
import type { Ending } from './run-state.js';
import { unrecoveredFailures } from './run-status.js';
import { decideVerdict, type Verdict, type VerdictChecks, type VerdictInputs } from './run-verdict.js';
import { summarizeRun } from './summarize-run.js';
import { overCounts } from './summary-counts.js';
import { readOnlyToolsOf } from './verify-finish.js';

export interface RecordedRunOptions {
  ledger: Ledger;
  /** Fail-open log; defaults to `fail-open.jsonl` beside the ledger. */
  failOpenLog?: string;
  meta?: Record<string, unknown>;
  /** Told about the run as it happens (progress, tracing); adds to any `withRunObserver` scope. */
  onEvent?: RunObserver;
  /**
   * Values this run scrubs wherever they reappear; adds to any `Ledger.withKnownSecrets` scope.
   * Passed, rather than scoped, by a caller that starts no nested run: on Node < 24 a scope
   * (AsyncLocalStorage) turns on async hooks for every promise after it (issue 22).
   */
  knownSecrets?: readonly string[];
}

export interface RecordedRun {
  recorder: RunRecorder;
  counts: RunCounts;
  failOpen: FailOpen;
  /** Set only when someone observes the run: the loop skips observer work otherwise. */
  emit?: (event: RunEvent) => void;
}

/**
 * Counts calls as they are appended, so a verified finish needs no read-back of the run;
 * tells the observer, if any, about each append (redacted as the ledger stores it).
 */
function countingRecorder(
  recorder: RunRecorder,
  emit?: RunObserver,
  agent = '',
): { recorder: RunRecorder; counts: RunCounts } {
  const counts: RunCounts = { modelCalls: 0, toolCalls: 0, failures: 0 };
  return {
    counts,
    // The observer gets the entry with its data redacted as the ledger stores it (redacting
    // twice cost a walk of every entry, issue 22).
    recorder: observedRecorder(recorder, (recorded, entry) => {
      if (entry.kind === 'model_call') counts.modelCalls += 1;
      if (entry.kind === 'tool_call') {
        counts.toolCalls += 1;
        if (entry.outcome !== 'ok') counts.failures += 1;
      }
      if (emit) emit({ type: 'entry', runId: recorder.runId, agent, entry: recorded, time: Date.now() });
    }),
  };
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The types a finish summary's counts are judged by, beyond the verified items' own: those the
 * agent claimed (dropped or duplicate claims too) and those it knows (its contract's `types`).
 * Recorded in the end entry's checks, so `tally verify` judges by the same words.
 */
function countedTypes(agent: Agent, finish: NonNullable<Ending['finish']>): string[] {
  const claimed = [...finish.dropped, ...finish.duplicates].map((drop) => drop.claim.type);
  const types = new Set<string>();
  for (const type of [...claimed, ...(agent.contract?.types ?? [])])
    if (typeof type === 'string' && type.trim()) types.add(type);
  return [...types].sort();
}

/** The rule's inputs for a verified finish; the agent's hooks (request, contract) run here. */
async function finishedInputs(
  agent: Agent,
  entries: LedgerEntry[],
  finish: NonNullable<Ending['finish']>,
  contract: RequestContract | undefined,
): Promise<VerdictInputs> {
  const check = { net: netEffects(entries), entries, verified: finish.verified };
  const types = countedTypes(agent, finish);
  return {
    ending: 'finish',
    reason: 'finished',
    verified: finish.verified.length,
    dropped: finish.dropped.length,
    failures: unrecoveredFailures(entries, agent.tools),
    reported: finish.failed,
    request: agent.checkRequest ? agent.checkRequest(check) : [],
    contract: await contractProblems(contract, agent.contract, check),
    planMissing: Boolean(agent.contract?.plan && !contract),
    unbacked: finish.problems ?? [],
    overCounts: overCounts(finish.summary, finish.verified, types),
    ...(types.length ? { types } : {}),
    unresolved: unresolvedIntents(entries).map(unresolvedIntentWords),
  };
}

/** The summary of a verified finish: its first words agree with the status. */
function finishedSummary(finish: NonNullable<Ending['finish']>, verdict: Verdict): string {
  const tally = `Verified ${plural(finish.verified.length, 'item')}${finish.dropped.length ? `; dropped ${plural(finish.dropped.length, 'unverifiable claim')}` : ''}${finish.duplicates.length ? `; ${plural(finish.duplicates.length, 'duplicate claim')} counted once` : ''}.`;
  const words = finish.summary.trim();
  if (verdict.status === 'success') return `${words || 'Finished.'} ${tally}`;
  // A partial run never opens with the agent's "done".
  return `Partly done: ${verdict.unmet.join('; ')}. ${tally}${words ? ` The agent's own summary: "${words}"` : ''}`;
}

const NAMED_ITEMS = 5;

/** What a run that ended without a finish made, by name: "Made: created src/b.ts, deleted src/a.ts." */
function madeWords(items: readonly VerifiedItem[]): string {
  const named = items.slice(0, NAMED_ITEMS).map((item) => `${String(item.effect ?? 'made')} ${item.target}`);
  const more = items.length - named.length;
  return `Made: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`;
}

/**
 * What a run that did not finish changed, told from its net effects, for an agent with no
 * `itemsWithoutFinish`/`itemsFromLedger` of its own: a run that ends failed must still say what
 * it left behind. Only the words use it; it backs no claim and does not lift the status.
 */
function changesLeft(net: NetEffects): VerifiedItem[] {
  return [...net.values()]
    .filter((effect) => effect.change !== undefined)
    .map((effect) => itemFromNet(effect));
}

/** A text answer told with what the ledger shows it made: the answer's own words claim nothing checked here. */
function answeredWords(
  agent: Agent,
  runId: string,
  entries: LedgerEntry[],
  net: NetEffects,
  answer: string,
): string {
  const items = (agent.itemsWithoutFinish ?? agent.itemsFromLedger)?.(
    evidenceView(runId, entries, readOnlyToolsOf(agent)),
  );
  if (items?.length) return `${madeWords(items)} Answered: ${answer}`;
  const left = items ? [] : changesLeft(net);
  if (left.length) return `${madeWords(left)} Answered: ${answer}`;
  const changed = [...net.values()].some((effect) => effect.change !== undefined);
  return changed ? `Answered: ${answer}` : `Answered without changing anything: ${answer}`;
}

/** The rule's inputs that only a verified finish has. */
const NO_FINISH = {
  verified: 0,
  dropped: 0,
  failures: [],
  reported: [],
  request: [],
  contract: [],
  planMissing: false,
  unbacked: [],
  overCounts: [],
  unresolved: [],
} satisfies Omit<VerdictInputs, 'ending' | 'reason'>;

export interface FinalizeInput {
  agent: Agent;
  recorder: RunRecorder;
  ending: Ending | undefined;
  lastText: string;
  counts: RunCounts;
  contract?: RequestContract;
  failOpen?: FailOpen;
}

/** A review that throws fails closed: the run cannot be a success it was not shown to be. */
async function reviewOf(
  input: FinalizeInput,
  draft: Omit<RunResult, 'text'>,
): Promise<ReviewOutcome | undefined> {
  const { agent, recorder } = input;
  if (!agent.review) return undefined;
  try {
    return await agent.review({
      runId: recorder.runId,
      entries: recorder.entries(),
      draft,
      ...(input.lastText ? { text: input.lastText } : {}),
      ...(input.ending?.finish?.summary ? { finishSummary: input.ending.finish.summary } : {}),
    });
  } catch (error) {
    input.failOpen?.('review', 'review-threw', recorder.runId);
    return { status: 'partial', unmet: [`the agent's review of the run failed: ${errorMessage(error)}`] };
  }
}

/**
 * Writes the `end` entry and builds the one result shape; never leaves a summary empty. The
 * end entry holds the whole verdict — status, reason, unmet, flags, recovery, contract — and
 * every surface reads that one object.
 */
export async function finalize(input: FinalizeInput): Promise<RunResult> {
  const { agent, recorder, counts, contract } = input;
  const ending = input.ending ?? {
    reason: 'aborted' as const,
    detail: 'the loop ended without a reason (a harness bug)',
  };
  let verified: VerifiedItem[] = [];
  let dropped = ending.finish?.dropped ?? [];
  const duplicates = ending.finish?.duplicates ?? [];
  const failed = ending.finish?.failed ?? [];
  const entries = recorder.entries();
  let inputs: VerdictInputs;
  let summaryOf: (verdict: Verdict) => string;
  if (ending.finish) {
    const finish = ending.finish;
    verified = finish.verified;
    inputs = await finishedInputs(agent, entries, finish, contract);
    summaryOf = (verdict) => finishedSummary(finish, verdict);
  } else if (ending.noChange !== undefined || ending.answer !== undefined) {
    const net = netEffects(entries);
    inputs = {
      ...NO_FINISH,
      ending: 'answer',
      reason: ending.reason,
      failures: unrecoveredFailures(entries, agent.tools),
      // A change declared and never answered: it may have happened without evidence.
      unresolved: unresolvedIntents(entries).map(unresolvedIntentWords),
      contract: await contractProblems(contract, agent.contract, { net, entries, verified: [] }),
    };
    const told =
      ending.noChange ?? answeredWords(agent, recorder.runId, entries, net, ending.answer as string);
    summaryOf = (verdict) =>
      verdict.status === 'success' ? told : `Partly done: ${verdict.unmet.join('; ')}. ${told}`;
  } else {
    const readOnly = readOnlyToolsOf(agent);
    const items = agent.itemsWithoutFinish ?? agent.itemsFromLedger;
    verified = items?.(evidenceView(recorder.runId, entries, readOnly)) ?? [];
    dropped = [];
    // What the request still lacks, so the summary names what was left undone, not only that
    // the run stopped.
    const net = netEffects(entries);
    const left = await contractProblems(contract, agent.contract, { net, entries, verified });
    inputs = {
      ...NO_FINISH,
      ending: 'other',
      reason: ending.reason,
      verified: verified.length,
      contract: left,
    };
    const count = verified.length;
    const changes = items ? [] : changesLeft(net);
    const made = count ? ` ${madeWords(verified)}` : changes.length ? ` ${madeWords(changes)}` : '';
    const undone = inputs.contract.length ? ` Left undone: ${inputs.contract.join('; ')}.` : '';
    const told = `${summarizeRun(entries, ending.reason, ending.detail, counts.modelCalls > 0)}${made}${undone}`;
    const backed = count === 1 ? 'is' : 'are';
    summaryOf = (verdict) =>
      ending.interrupted
        ? verdict.status === 'failed'
          ? `Aborted: nothing made before the interrupt is backed by the ledger. ${told}`
          : `Aborted: ${plural(count, 'item')} made before the interrupt ${backed} backed by the ledger. ${told}`
        : verdict.status === 'failed'
          ? `Not done. ${told}`
          : `Partly done: ${plural(count, 'item')} made before the run ended ${backed} backed by the ledger. ${told}`;
  }
  const drafted = decideVerdict(inputs);
  let { status, unmet } = drafted;
  let summary = summaryOf(drafted);
  const runContract = contract ? contractRecord(contract) : undefined;
  const draft: Omit<RunResult, 'text'> = {
    runId: recorder.runId,
    agent: agent.name,
    status,
    endingReason: ending.reason,
    summary,
    verified,
    dropped,
    duplicates,
    failed,
    unmet,
    counts,
    ...(runContract ? { contract: runContract } : {}),
  };
  const review = await reviewOf(input, draft);
  const reviewed = review
    ? {
        ...(review.status ? { status: review.status } : {}),
        ...(review.unmet ? { unmet: review.unmet } : {}),
        ...(review.recovery ? { recovery: review.recovery } : {}),
      }
    : undefined;
  const verdict = reviewed ? decideVerdict({ ...inputs, review: reviewed }) : drafted;
  const reason = verdict.reason;
  if (review?.recovery) summary = review.recovery.summary;
  else if (verdict.status !== status)
    summary = `${verdict.status === 'failed' ? 'Not done' : 'Partly done'}: ${(review?.unmet ?? []).join('; ')}. ${summary}`;
  status = verdict.status;
  unmet = verdict.unmet;
  const checks: VerdictChecks = {
    ending: inputs.ending,
    reason: ending.reason,
    ...(ending.finish ? { summary: recorder.redactor.redactText(ending.finish.summary) } : {}),
    ...(agent.contract?.plan ? { plan: true } : {}),
    ...(inputs.request.length ? { request: inputs.request } : {}),
    ...(inputs.contract.length ? { contract: inputs.contract } : {}),
    ...(inputs.types?.length ? { types: inputs.types } : {}),
    ...(reviewed ? { review: reviewed } : {}),
  };
  summary = recorder.redactor.redactText(summary);
  const flags = review?.flags?.length ? review.flags : undefined;
  recorder.append({
    kind: 'end',
    name: reason,
    outcome: reason,
    data: {
      reason,
      status,
      summary,
      verified: verified.length,
      dropped: dropped.length,
      ...(duplicates.length ? { duplicates: duplicates.length } : {}),
      ...(failed.length ? { failed } : {}),
      ...(unmet.length ? { unmet } : {}),
      ...(flags ? { flags } : {}),
      ...(review?.recovery ? { recovery: review.recovery } : {}),
      ...(review?.facts ? { facts: review.facts } : {}),
      ...(runContract ? { contract: runContract } : {}),
      counts,
      ...(ending.detail ? { detail: ending.detail } : {}),
      checks,
    },
  });
  return {
    ...draft,
    endingReason: reason,
    status,
    summary,
    unmet,
    ...(flags ? { flags } : {}),
    ...(review?.recovery ? { recovery: review.recovery } : {}),
    ...(review?.facts ? { facts: review.facts } : {}),
    ...(input.lastText ? { text: recorder.redactor.redactText(input.lastText) } : {}),
  };
}

/** Starts a run in the ledger with a counting recorder and a fail-open recorder bound to it. */
export function startRecordedRun(
  agent: Agent,
  task: string,
  options: RecordedRunOptions,
  meta: Record<string, unknown> = {},
): RecordedRun {
  const scoped = currentRunObserver();
  const observer =
    scoped && options.onEvent ? combineObservers(scoped, options.onEvent) : (scoped ?? options.onEvent);
  const emit = observer ? guardedObserver(observer) : undefined;
  const started = options.ledger.startRun({
    agent: agent.name,
    task,
    meta: { ...meta, ...options.meta },
    ...(options.knownSecrets ? { knownSecrets: options.knownSecrets } : {}),
  });
  const { recorder, counts } = countingRecorder(started, emit, agent.name);
  emit?.({
    type: 'run-start',
    runId: recorder.runId,
    agent: agent.name,
    task: recorder.redactor.redactText(task),
    meta: recorder.redactor.redact({ ...meta, ...options.meta }),
    time: Date.now(),
  });
  const failOpen = createFailOpen({
    logPath: options.failOpenLog ?? join(dirname(options.ledger.path), 'fail-open.jsonl'),
    onRecord: (line) =>
      recorder.append({ kind: 'fail_open', name: line.component, outcome: line.why, data: { ...line } }),
  });
  return { recorder, counts, failOpen, ...(emit ? { emit } : {}) };
}
