/**
 * One error hierarchy for all of Tally. Every error has a stable `code`, structured
 * fields, and a message that ends with what to do next.
 */
export class TallyError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: string; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** A tool refused the call on purpose (bad input, outside scope, gate). Outcome: `rejected`. */
export class ToolRejectedError extends TallyError {}

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
  if (error instanceof TallyError) return error.code;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return 'TOOL_THREW';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
