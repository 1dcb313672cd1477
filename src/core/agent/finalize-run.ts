import { dirname, join } from 'node:path';
import { netEffects } from '../effects.js';
import { errorMessage } from '../errors.js';
import { createFailOpen, type FailOpen } from '../fail-open.js';
import { unresolvedIntents, unresolvedIntentWords } from '../intents.js';
import type { Ledger, RunRecorder } from '../ledger/ledger.js';
import type { Agent } from './agent-definition.js';
import { evidenceView } from './claims.js';
import { contractProblems, contractRecord, type RequestContract } from './contract.js';
import type { RunCounts, RunResult, RunStatus, VerifiedItem } from './ending.js';
import {
  combineObservers,
  currentRunObserver,
  guardedObserver,
  type RunEvent,
  type RunObserver,
} from './run-observer.js';
import { type ReviewOutcome, worseStatus } from './run-review.js';
import type { Ending } from './run-state.js';
import { unmetReasons, unrecoveredFailures } from './run-status.js';
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
    recorder: {
      runId: recorder.runId,
      redactor: recorder.redactor,
      entries: () => recorder.entries(),
      commit: (limitMs) => recorder.commit(limitMs),
      append: (entry) => {
        if (entry.kind === 'model_call') counts.modelCalls += 1;
        if (entry.kind === 'tool_call') {
          counts.toolCalls += 1;
          if (entry.outcome !== 'ok') counts.failures += 1;
        }
        recorder.append(entry);
        if (emit)
          emit({
            type: 'entry',
            runId: recorder.runId,
            agent,
            entry: { ...entry, data: recorder.redactor.redact(entry.data) },
            time: Date.now(),
          });
      },
    },
  };
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The status rule applied to a verified finish: success only when the request was met. */
async function finishedStatus(
  agent: Agent,
  recorder: RunRecorder,
  finish: NonNullable<Ending['finish']>,
  contract: RequestContract | undefined,
): Promise<{ status: RunStatus; unmet: string[]; summary: string }> {
  const entries = recorder.entries();
  const check = { net: netEffects(entries), entries, verified: finish.verified };
  const requestProblems = [
    ...(agent.checkRequest ? agent.checkRequest(check) : []),
    ...(await contractProblems(contract, agent.contract, check)),
    ...(agent.contract?.plan && !contract
      ? ['no request contract was stated (the plan step never ran), so nothing shows the request was met']
      : []),
    ...(finish.problems ?? []),
    ...overCounts(finish.summary, finish.verified),
    ...unresolvedIntents(entries).map(unresolvedIntentWords),
  ];
  const unmet = unmetReasons({
    droppedCount: finish.dropped.length,
    failures: unrecoveredFailures(entries, agent.tools),
    reported: finish.failed,
    requestProblems,
  });
  const tally = `Verified ${plural(finish.verified.length, 'item')}${finish.dropped.length ? `; dropped ${plural(finish.dropped.length, 'unverifiable claim')}` : ''}${finish.duplicates.length ? `; ${plural(finish.duplicates.length, 'duplicate claim')} counted once` : ''}.`;
  const words = finish.summary.trim();
  if (unmet.length === 0) return { status: 'success', unmet, summary: `${words || 'Finished.'} ${tally}` };
  // The first words agree with the status: a partial run never opens with the agent's "done".
  return {
    status: 'partial',
    unmet,
    summary: `Partly done: ${unmet.join('; ')}. ${tally}${words ? ` The agent's own summary: "${words}"` : ''}`,
  };
}

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
  let unmet: string[] = [];
  let status: RunStatus;
  let summary: string;
  if (ending.finish) {
    verified = ending.finish.verified;
    ({ status, unmet, summary } = await finishedStatus(agent, recorder, ending.finish, contract));
  } else if (ending.noChange !== undefined || ending.answer !== undefined) {
    const entries = recorder.entries();
    // A text answer is held to the same rule: a step that failed or was refused and was never
    // taken again leaves the request unmet, however the answer words it.
    const problems = [
      ...unmetReasons({
        droppedCount: 0,
        failures: unrecoveredFailures(entries, agent.tools),
        reported: [],
        // A change declared and never answered: it may have happened without evidence.
        requestProblems: unresolvedIntents(entries).map(unresolvedIntentWords),
      }),
      ...(await contractProblems(contract, agent.contract, {
        net: netEffects(entries),
        entries,
        verified: [],
      })),
    ];
    status = problems.length === 0 ? 'success' : 'partial';
    unmet = problems;
    const told =
      ending.noChange !== undefined
        ? ending.noChange
        : `Answered without claiming any change: ${ending.answer as string}`;
    summary = problems.length === 0 ? told : `Partly done: ${problems.join('; ')}. ${told}`;
  } else {
    const entries = recorder.entries();
    const readOnly = readOnlyToolsOf(agent);
    verified = agent.itemsFromLedger?.(evidenceView(recorder.runId, entries, readOnly)) ?? [];
    dropped = [];
    status = verified.length > 0 ? 'partial' : 'failed';
    unmet = [`the run ended without a verified finish (${ending.reason})`];
    const told = summarizeRun(entries, ending.reason, ending.detail, counts.modelCalls > 0);
    const backed = verified.length === 1 ? 'is' : 'are';
    if (ending.interrupted)
      summary =
        status === 'failed'
          ? `Aborted: nothing made before the interrupt is backed by the ledger. ${told}`
          : `Aborted: ${plural(verified.length, 'item')} made before the interrupt ${backed} backed by the ledger. ${told}`;
    else
      summary =
        status === 'failed'
          ? `Not done. ${told}`
          : `Partly done: ${plural(verified.length, 'item')} made before the run ended ${backed} backed by the ledger. ${told}`;
  }
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
  // A turn that "finished" in text right after a failed call ended for that failure: one reason.
  const reason = review?.recovery && ending.reason === 'finished' ? review.recovery.reason : ending.reason;
  if (review) {
    const reviewed = worseStatus(status, review.status ?? (review.unmet?.length ? 'partial' : undefined));
    unmet = [...unmet, ...(review.unmet ?? [])];
    if (review.recovery) summary = review.recovery.summary;
    else if (reviewed !== status)
      summary = `${reviewed === 'failed' ? 'Not done' : 'Partly done'}: ${(review.unmet ?? []).join('; ')}. ${summary}`;
    status = reviewed;
  }
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
  const started = options.ledger.startRun({ agent: agent.name, task, meta: { ...meta, ...options.meta } });
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
