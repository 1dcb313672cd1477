import type { ModelMessage } from 'ai';
import type { RequestContract } from './contract.js';
import type { DroppedClaim, EndingReason, ReportedFailure, VerifiedItem } from './ending.js';
import type { StepCalls } from './step-calls.js';

/** How a run ended; `finish` is set only for a verified finish. */
export interface Ending {
  reason: EndingReason;
  detail?: string;
  finish?: {
    summary: string;
    verified: VerifiedItem[];
    dropped: DroppedClaim[];
    duplicates: DroppedClaim[];
    failed: ReportedFailure[];
    /** What the finish itself states that no claim backs (content named in words). */
    problems?: string[];
  };
  /** A conversational or chat reply that ends the turn without finish. */
  answer?: string;
  /** A plan found nothing to change: success, with this account of why. */
  noChange?: string;
  /** The caller aborted the run (an interrupt): the summary says what was made before it. */
  interrupted?: boolean;
}

/** Mutable state of one run, owned by runAgent and the tools it builds for that run. */
export interface RunState {
  ending?: Ending;
  rounds: number;
  lastText: string;
  lastToolFailed: boolean;
  pendingNudges: { why: string; text: string }[];
  /** Nudges spliced into the conversation at an absolute message index. */
  injected: { index: number; message: ModelMessage }[];
  handledToolCalls: Set<string>;
  /** The request contract, once stated (by the request or the model's `plan`). */
  contract?: RequestContract;
  /** Set once an effectful call has run: the contract is fixed from then on. */
  effectRan: boolean;
  /** The tool calls of the model response being acted on (finish waits for it). */
  step?: StepCalls;
}

export function newRunState(): RunState {
  return {
    rounds: 0,
    lastText: '',
    lastToolFailed: false,
    pendingNudges: [],
    injected: [],
    handledToolCalls: new Set(),
    effectRan: false,
  };
}

/** Rebuilds the message list with injected nudges at the positions they were given. */
export function withInjected(messages: ModelMessage[], injected: RunState['injected']): ModelMessage[] {
  if (injected.length === 0) return messages;
  const out: ModelMessage[] = [];
  let next = 0;
  for (let index = 0; index <= messages.length; index++) {
    while (next < injected.length && (injected[next] as { index: number }).index === index) {
      out.push((injected[next] as { message: ModelMessage }).message);
      next += 1;
    }
    if (index < messages.length) out.push(messages[index] as ModelMessage);
  }
  return out;
}
