/**
 * Every error code Tally throws, as keys (the values are unused). Core lists its own here; a
 * pack, agent or surface adds its codes where it lives, by declaration merging, so core names
 * none of them:
 *
 *     declare module '../../core/errors.js' {
 *       interface TallyErrorCodes { RECIPE_INVALID: true }
 *     }
 */
export interface TallyErrorCodes {
  ABORTED: true;
  AGENT_CONFIG_INVALID: true;
  CONTRACT_FIXED: true;
  FINISH_NOT_ALONE: true;
  FINISH_REJECTED: true;
  GATE_DENIED: true;
  INVALID_INPUT: true;
  LEDGER_BUSY: true;
  LEDGER_PATH_INVALID: true;
  LEDGER_UNAVAILABLE: true;
  LEDGER_WRITE_FAILED: true;
  MODEL_NOT_CONFIGURED: true;
  MODEL_SPEC_INVALID: true;
  NOT_A_DIRECTORY: true;
  PLAN_REQUIRED: true;
  PROMPT_NAMES_UNKNOWN_TOOL: true;
  RUN_ABORTED: true;
  RUN_ENDED: true;
  RUN_NOT_FOUND: true;
  RUN_NOT_IN_PROCESS: true;
  TIMEOUT: true;
}

/** A code a `TallyError` may carry: a typo fails the type check. */
export type TallyErrorCode = keyof TallyErrorCodes;

// Registered, not a fresh symbol: two copies of Tally in one process (a library and a plugin
// each bundling it) mark their errors alike, where `instanceof` sees two unrelated classes.
const TALLY_ERROR = Symbol.for('tally.error');

/**
 * Whether `value` carries `marker`, a registered symbol (`Symbol.for`): the same key in every
 * copy of Tally, so an error class that callers check is known by it across copies.
 */
export function carriesMarker(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

/** True for an error thrown by any copy of Tally: use this, not `instanceof TallyError`. */
export function isTallyError(value: unknown): value is TallyError {
  return carriesMarker(value, TALLY_ERROR) && typeof (value as { code?: unknown }).code === 'string';
}

/**
 * One error hierarchy for all of Tally. Every error has a stable `code`, structured
 * fields, and a message that ends with what to do next; `cause` keeps the error underneath.
 */
export class TallyError extends Error {
  readonly code: TallyErrorCode;
  readonly details: Record<string, unknown>;
  readonly [TALLY_ERROR] = true;

  constructor(
    code: TallyErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options: { cause?: unknown } = {},
  ) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: string; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

const TOOL_REJECTED = Symbol.for('tally.error.tool-rejected');

/**
 * The mark of the errors a faulty declaration throws where it is written (`definePack`,
 * `defineAgentSurface`, fail-open reasons, the pack registry): a user's module built against
 * its own copy of Tally throws that copy's class, which the CLI then knows by this mark.
 */
export const DECLARATION_ERROR = Symbol.for('tally.error.declaration');

/** True for a declaration error (see `DECLARATION_ERROR`) of any copy of Tally. */
export function isDeclarationError(value: unknown): value is Error & { code: TallyErrorCode } {
  return (
    value instanceof Error &&
    carriesMarker(value, DECLARATION_ERROR) &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

/** A tool refused the call on purpose (bad input, outside scope, gate). Outcome: `rejected`. */
export class ToolRejectedError extends TallyError {
  readonly [TOOL_REJECTED] = true;
}

/**
 * True for a `ToolRejectedError` of any copy of Tally (a tool written against the user's copy
 * and run by the CLI's): use this, not `instanceof`.
 */
export function isToolRejectedError(value: unknown): value is ToolRejectedError {
  return isTallyError(value) && carriesMarker(value, TOOL_REJECTED);
}

export class AgentConfigError extends TallyError {
  constructor(agent: string, problem: string, fix: string, details: Record<string, unknown> = {}) {
    super('AGENT_CONFIG_INVALID', `Agent "${agent}" is misconfigured: ${problem}. ${fix}`, {
      agent,
      ...details,
    });
  }
}

export class PromptLintError extends TallyError {
  constructor(agent: string, unknownNames: { name: string; suggestion?: string }[]) {
    const list = unknownNames
      .map((entry) =>
        entry.suggestion ? `"${entry.name}" (did you mean "${entry.suggestion}"?)` : `"${entry.name}"`,
      )
      .join(', ');
    super(
      'PROMPT_NAMES_UNKNOWN_TOOL',
      `The system prompt of agent "${agent}" mentions tools it does not have: ${list}. Fix the spelling in the prompt or register the tool.`,
      { agent, unknownNames },
    );
  }
}

export class ModelNotConfiguredError extends TallyError {
  constructor(agent: string) {
    super(
      'MODEL_NOT_CONFIGURED',
      `Agent "${agent}" needs a language model and none is configured. Pass --model provider:model (for example --model openai:gpt-4.1-mini or --model anthropic:claude-sonnet-4-5), or set TALLY_MODEL.`,
      { agent },
    );
  }
}

export class ModelSpecError extends TallyError {
  /** `fix` replaces the list of spec forms where the spec is fine and something else is missing. */
  constructor(spec: string, problem: string, fix?: string) {
    super(
      'MODEL_SPEC_INVALID',
      `Model "${spec}" cannot be used: ${problem}. ${fix ?? 'Use openai:<model>, anthropic:<model>, ollama:<model> or compatible:<model>@<base-url>.'}`,
      { spec },
    );
  }
}

export class LedgerError extends TallyError {}

export class RunNotFoundError extends TallyError {
  constructor(runId: string, ledgerPath: string) {
    super(
      'RUN_NOT_FOUND',
      `No run "${runId}" in the ledger at ${ledgerPath}. List runs with \`tally runs\`.`,
      {
        runId,
        ledgerPath,
      },
    );
  }
}

export function errorCode(error: unknown): string {
  if (isTallyError(error)) return error.code;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return 'TOOL_THREW';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
