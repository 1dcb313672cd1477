import type { EndingReason, ReportedFailure, RunStatus } from './ending.js';
import { type ReviewOutcome, worseStatus } from './run-review.js';
import { type UnrecoveredFailure, unmetReasons } from './run-status.js';

/** How a run ended, as far as the status rule is concerned. */
export type VerdictEnding = 'finish' | 'answer' | 'other';

/**
 * What the agent's own code said about the run, where it needs more than the ledger (a live
 * scope, a project root, the chat's earlier turns). Written into the `end` entry as `checks`,
 * so `tally verify` applies the same rule to the same inputs and can say which were re-checked.
 */
export interface VerdictChecks {
  ending: VerdictEnding;
  /** The reason the loop ended, before a review's recovery renamed it. */
  reason: EndingReason;
  /** The finish's own summary words (redacted): counts and content it names are checked against the claims. */
  summary?: string;
  /** `agent.checkRequest`: what the net effects lack (agent code). */
  request?: string[];
  /** The agent states its contract with `plan`: a run without a contract entry cannot succeed. */
  plan?: boolean;
  /** The contract's check (agent code; a live scope or the project's files). */
  contract?: string[];
  /** The types the summary's counts were judged by (claimed, and known to the agent), beyond the verified items'. */
  types?: string[];
  /** A review's outcome (agent code): it may only lower the status. */
  review?: Pick<ReviewOutcome, 'status' | 'unmet' | 'recovery'>;
}

/** Every input of the status rule; the rule itself needs nothing else. */
export interface VerdictInputs {
  ending: VerdictEnding;
  reason: EndingReason;
  /** Verified items: claims backed by the ledger (or items the agent took from it). */
  verified: number;
  dropped: number;
  failures: UnrecoveredFailure[];
  reported: ReportedFailure[];
  /** `checkRequest`'s problems (finish only). */
  request: string[];
  /** The contract's problems, its dropped words included. */
  contract: string[];
  /** The agent states a contract with `plan`, and none was stated. */
  planMissing: boolean;
  /** Content the finish's summary names that no verified claim checks. */
  unbacked: string[];
  /** Counts the summary states above the distinct verified resources. */
  overCounts: string[];
  /** The types `overCounts` judged by (recorded as the checks' `types`). */
  types?: string[];
  /** Changes declared and never answered (`intent` entries without an outcome). */
  unresolved: string[];
  review?: VerdictChecks['review'];
}

export interface Verdict {
  status: RunStatus;
  /** Why the status is not `success`, in the order the rule finds them. */
  unmet: string[];
  /** The ending reason written to the `end` entry (a review's recovery may rename `finished`). */
  reason: EndingReason;
  /** The status before the review, for the summary's first words. */
  drafted: RunStatus;
}

export const PLAN_MISSING =
  'no request contract was stated (the plan step never ran), so nothing shows the request was met';

/**
 * THE status rule, over data only: `finalize` decides a run's verdict with it, and
 * `tally verify` recomputes a past run's verdict with it from the ledger — one definition.
 */
export function decideVerdict(input: VerdictInputs): Verdict {
  let status: RunStatus;
  let unmet: string[];
  if (input.ending === 'finish') {
    unmet = unmetReasons({
      droppedCount: input.dropped,
      failures: input.failures,
      reported: input.reported,
      requestProblems: [
        ...input.request,
        ...input.contract,
        ...(input.planMissing ? [PLAN_MISSING] : []),
        ...input.unbacked,
        ...input.overCounts,
        ...input.unresolved,
      ],
    });
    status = unmet.length === 0 ? 'success' : 'partial';
  } else if (input.ending === 'answer') {
    // A text answer is held to the same rule: a step that failed or was refused and was never
    // taken again leaves the request unmet, however the answer words it.
    unmet = [
      ...unmetReasons({
        droppedCount: 0,
        failures: input.failures,
        reported: [],
        requestProblems: input.unresolved,
      }),
      ...input.contract,
    ];
    status = unmet.length === 0 ? 'success' : 'partial';
  } else {
    status = input.verified > 0 ? 'partial' : 'failed';
    unmet = [`the run ended without a verified finish (${input.reason})`, ...input.contract];
  }
  const drafted = status;
  const review = input.review;
  if (!review) return { status, unmet, reason: input.reason, drafted };
  return {
    status: worseStatus(status, review.status ?? (review.unmet?.length ? 'partial' : undefined)),
    unmet: [...unmet, ...(review.unmet ?? [])],
    // A turn that "finished" in text right after a failed call ended for that failure: one reason.
    reason: review.recovery && input.reason === 'finished' ? review.recovery.reason : input.reason,
    drafted,
  };
}
