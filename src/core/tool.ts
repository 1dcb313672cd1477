import type { z } from 'zod';
import type { ClaimResolver } from './claim-resolver.js';
import type { Effect } from './effects.js';

/** MCP-style hints: the same flags are served to the model, to MCP clients and to the CLI. */
export interface ToolAnnotations {
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

/**
 * Facts produced by the system while executing a tool, never by the model: `effects` are
 * what the call did to which resource (canonical keys built by the tool), `via` is how to
 * cite it. A tool that cannot know its effect declares none.
 */
export interface Evidence {
  via?: string;
  effects?: Effect[];
  [key: string]: unknown;
}

export interface ToolOutcome<Result = unknown> {
  result: Result;
  evidence?: Evidence;
}

/**
 * What a call is about to change, declared before it changes it: `resources` are named the
 * way its effects will name them (`space` + `key`); `details` is the tool's own (never read
 * by the core).
 */
export interface ToolIntent {
  /** The change in the tool's words: `write`, `move`, `delete`. */
  action: string;
  resources: { space: string; key: string }[];
  details?: Record<string, unknown>;
}

/** What a tool may use while it runs. Passed in, never global. */
export interface ToolContext {
  runId: string;
  signal?: AbortSignal;
  /** Record a fail-open from inside a tool (never throws). */
  failOpen: (component: string, why: string) => void;
  /**
   * Records an `intent` entry and waits until it is committed: call it just before the step
   * that changes something (a rename), so a process killed after that step leaves an intent
   * without an outcome rather than a change without an entry. Throws (LEDGER_BUSY, or the
   * call was abandoned) when the intent cannot be recorded: then make no change. Absent
   * where no ledger records the call (a tool run directly).
   */
  recordIntent?: (intent: ToolIntent) => Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: registries mix tools of different input types
export interface ToolDefinition<Input = any, Result = any> {
  name: string;
  /** When to use the tool, written for a model and for an MCP client alike. */
  description: string;
  inputSchema: z.ZodType<Input>;
  outputSchema?: z.ZodType<Result>;
  annotations: ToolAnnotations;
  /**
   * The normalized target of a call, for the repeated-failure guard
   * (`POST /api/{id}/suites`, `src/a.ts`). Defaults to the tool name.
   */
  target?: (input: Input) => string;
  /**
   * What a call tries to change, for the status rule: a failed call is recovered only by a
   * later success with the same intent. Undefined means the call changes nothing (a read).
   * Defaults to the target for tools not marked read-only.
   */
  intent?: (input: Input) => string | undefined;
  /** Deadline for one call in ms (default 60 s). A tool that ignores its abort signal is abandoned. */
  timeoutMs?: number;
  /** Canonicalizes claim spellings of the resources this tool's effects name. */
  claimResolver?: ClaimResolver;
  execute: (input: Input, context: ToolContext) => Promise<ToolOutcome<Result>>;
  /**
   * What of a result the ledger keeps, when not all of it: a file read keeps its hash and
   * size, not the content. Evidence is always kept whole.
   */
  ledgerView?: (result: Result) => unknown;
  /**
   * What of a (valid) input the ledger keeps, when not all of it: a write keeps a large
   * content's length only — the bytes written are in the evidence (size, sha256 read back
   * from disk). The caller still gets the input whole; the status rule reads it whole.
   */
  ledgerInput?: (input: Input) => unknown;
}

/** Identity helper that keeps the input type inferred from the zod schema. */
export function defineTool<Input, Result>(
  definition: ToolDefinition<Input, Result>,
): ToolDefinition<Input, Result> {
  if (!/^[a-z][a-z0-9_]*$/.test(definition.name)) {
    throw new TypeError(
      `Tool name "${definition.name}" must be snake_case (a-z, 0-9, _), starting with a letter.`,
    );
  }
  return definition;
}
