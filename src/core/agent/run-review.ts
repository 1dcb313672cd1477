import type { LedgerEntry } from '../ledger/entry.js';
import type { EndingReason, RunResult, RunStatus } from './ending.js';

/** What a review adds to a run's verdict before the end entry is written. */
export interface ReviewOutcome {
  /** Worse statuses only: `success` → `partial` → `failed`; a better one is ignored. */
  status?: RunStatus;
  /** Why the run ended, when the review knows better (a chat turn that ended on a failed call). */
  recovery?: { reason: EndingReason; summary: string };
  /** Why the status is not `success`, added to `unmet`. */
  unmet?: string[];
  /** Statements of the agent that the ledger contradicts (a chat agent's flags). */
  flags?: unknown[];
  /** Facts for the end entry and the result (a chat agent's change list). */
  facts?: Record<string, unknown>;
}

export interface ReviewContext {
  runId: string;
  entries: readonly LedgerEntry[];
  /** The verdict as it stands before the review. */
  draft: Omit<RunResult, 'text'>;
  /** The model's last text for the user, if any. */
  text?: string;
  /** The summary of the `finish` call that ended the run, if any: the agent's words the user is shown. */
  finishSummary?: string;
}

export type RunReview = (
  context: ReviewContext,
) => ReviewOutcome | undefined | Promise<ReviewOutcome | undefined>;

const RANK = { success: 0, partial: 1, failed: 2 } as const;

/** The worse of two statuses: a review may lower a verdict, never raise it. */
export function worseStatus(current: RunStatus, proposed: RunStatus | undefined): RunStatus {
  return proposed !== undefined && RANK[proposed] > RANK[current] ? proposed : current;
}
