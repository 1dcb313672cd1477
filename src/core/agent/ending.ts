/** The closed set of ways a run can end. */
export const ENDING_REASONS = [
  'finished',
  'stopped',
  'round_cap',
  'repeated_failure',
  'loop',
  'no_text',
  'tool_failure',
  'model_error',
  'aborted',
] as const;

export type EndingReason = (typeof ENDING_REASONS)[number];

export type RunStatus = 'success' | 'partial' | 'failed';

export interface VerifiedItem {
  /** What the claim was about (an id, a path). */
  target: string;
  type?: string;
  title?: string;
  /** The evidence that backs it: `POST /api/alpha-shop/suites → 201`, `src/a.ts sha256=…`. */
  via: string;
  /** Ledger sequence number of the backing tool call. */
  evidenceSeq: number;
  [key: string]: unknown;
}

export interface DroppedClaim {
  claim: Record<string, unknown>;
  why: string;
}

/** Something the agent itself reported it could not do (the finish's `failed` list). */
export interface ReportedFailure {
  target?: string;
  type?: string;
  reason: string;
}

export interface RunCounts {
  modelCalls: number;
  toolCalls: number;
  failures: number;
}

/** One result shape for every run, whatever the agent and however it ended. */
export interface RunResult {
  runId: string;
  agent: string;
  status: RunStatus;
  endingReason: EndingReason;
  summary: string;
  verified: VerifiedItem[];
  dropped: DroppedClaim[];
  /** Claims that named an already-claimed resource again: counted once, listed here. */
  duplicates: DroppedClaim[];
  /** What the agent reported as not done (part of the result, never swallowed). */
  failed: ReportedFailure[];
  /** Why the status is not `success` (empty on success). */
  unmet: string[];
  counts: RunCounts;
  /** The model's last text for the user, if any. */
  text?: string;
  /** What was asked, in data, when the agent knows it (see `ContractSpec`). */
  contract?: RunContract;
  /** Statements the ledger contradicts (a review's flags), part of the verdict. */
  flags?: unknown[];
  /** Set when the run ended badly in a way its ending reason alone does not tell (a chat turn). */
  recovery?: { reason: EndingReason; summary: string };
  /** A review's facts (a chat agent's changes), as the end entry holds them. */
  facts?: Record<string, unknown>;
}

/**
 * A run's request contract, as the run holds it and as results and the ledger carry it:
 * the request's structure in data, fixed before the run's first effect (see `ContractSpec`).
 */
export type RunContract = {
  /** Who stated it: a parser of the request, the model (`plan`), or the agent's own hook. */
  source: 'request' | 'model' | 'agent';
  /** One line for people: "2 suites, each with 3 tests, in project alpha-shop". */
  description: string;
  /** The agent's own structure (JSON): entities and counts, files and content… */
  data: unknown;
  /** What the contract states, as words: counts, quoted strings, paths, names, type words. */
  words: string[];
  /** Words of the request this contract does not account for: it can never be met. */
  dropped?: string[];
};

const EXPLANATIONS: Record<EndingReason, string> = {
  finished: 'the agent finished and its claims were checked against the ledger',
  stopped: 'the agent stopped and gave its reason',
  round_cap: 'the round cap was reached before the agent finished',
  repeated_failure: 'the same target failed repeatedly in a row',
  loop: 'the agent repeated the same call with the same arguments after a warning',
  no_text: 'the model returned neither text nor a tool call',
  tool_failure: 'the model ended its turn right after a failed tool call, without finishing',
  model_error: 'the model call failed',
  aborted: 'the run was aborted',
};

/** The same endings told of a run in which no model ran (a deterministic plan). */
const PLAN_EXPLANATIONS: Partial<Record<EndingReason, string>> = {
  stopped: 'the plan stopped and gave its reason',
  tool_failure: 'a step of the deterministic plan failed',
  finished: 'the plan finished and its claims were checked against the ledger',
};

export function explainEnding(reason: EndingReason, modelRan = true): string {
  return (modelRan ? undefined : PLAN_EXPLANATIONS[reason]) ?? EXPLANATIONS[reason];
}
