import { dirname, join } from 'node:path';
import { netEffects } from '../effects.js';
import { createFailOpen, type FailOpen } from '../fail-open.js';
import type { Ledger, RunRecorder } from '../ledger/ledger.js';
import type { Agent } from './agent-definition.js';
import { evidenceView } from './claims.js';
import type { RunCounts, RunResult, RunStatus, VerifiedItem } from './ending.js';
import {
  combineObservers,
  currentRunObserver,
  guardedObserver,
  type RunEvent,
  type RunObserver,
} from './run-observer.js';
import type { Ending } from './run-state.js';
import { unmetReasons, unrecoveredFailures } from './run-status.js';
import { summarizeRun } from './summarize-run.js';
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
function finishedStatus(
  agent: Agent,
  recorder: RunRecorder,
  finish: NonNullable<Ending['finish']>,
): { status: RunStatus; unmet: string[]; summary: string } {
  const entries = recorder.entries();
  const requestProblems = agent.checkRequest
    ? agent.checkRequest({ net: netEffects(entries), entries, verified: finish.verified })
    : [];
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

/** Writes the `end` entry and builds the one result shape; never leaves a summary empty. */
export function finalize(
  agent: Agent,
  recorder: RunRecorder,
  endingOrUndefined: Ending | undefined,
  lastText: string,
  counts: RunCounts,
): RunResult {
  const ending = endingOrUndefined ?? {
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
    ({ status, unmet, summary } = finishedStatus(agent, recorder, ending.finish));
  } else if (ending.noChange !== undefined) {
    status = 'success';
    summary = ending.noChange;
  } else if (ending.answer !== undefined) {
    status = 'success';
    summary = `Answered without claiming any change: ${ending.answer}`;
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
  summary = recorder.redactor.redactText(summary);
  recorder.append({
    kind: 'end',
    name: ending.reason,
    outcome: ending.reason,
    data: {
      reason: ending.reason,
      status,
      summary,
      verified: verified.length,
      dropped: dropped.length,
      ...(duplicates.length ? { duplicates: duplicates.length } : {}),
      ...(failed.length ? { failed } : {}),
      ...(unmet.length ? { unmet } : {}),
      counts,
      ...(ending.detail ? { detail: ending.detail } : {}),
    },
  });
  return {
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
    ...(lastText ? { text: recorder.redactor.redactText(lastText) } : {}),
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
