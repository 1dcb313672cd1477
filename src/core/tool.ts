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

/**
 * Checks a tool definition and returns it, its input type inferred from the zod schema. A
 * definition from plain JavaScript is checked as TypeScript would have: a field of the wrong
 * kind is named now, before any run, rather than crashing a run halfway. Annotations may be
 * left out: none means a tool that may change things (the careful reading).
 */
export function defineTool<Input, Result>(
  definition: ToolDefinition<Input, Result>,
): ToolDefinition<Input, Result> {
  const tool = definition as Partial<Record<keyof ToolDefinition, unknown>> | null;
  if (tool === null || typeof tool !== 'object')
    throw new TypeError('A tool definition must be an object: { name, description, inputSchema, execute }.');
  if (typeof tool.name !== 'string' || !/^[a-z][a-z0-9_]*$/.test(tool.name)) {
    throw new TypeError(
      `Tool name "${String(tool.name)}" must be snake_case (a-z, 0-9, _), starting with a letter.`,
    );
  }
  const wrong = (field: string, should: string) =>
    new TypeError(`Tool "${String(tool.name)}": ${field} must be ${should}.`);
  if (typeof tool.description !== 'string') throw wrong('description', 'a string (when to use the tool)');
  if (typeof (tool.inputSchema as { safeParse?: unknown } | undefined)?.safeParse !== 'function')
    throw wrong('inputSchema', 'a zod schema, such as z.object({ … })');
  if (typeof tool.execute !== 'function') throw wrong('execute', 'an async function (input, context)');
  for (const field of ['target', 'intent', 'ledgerView', 'ledgerInput'] as const)
    if (tool[field] !== undefined && typeof tool[field] !== 'function')
      throw wrong(field, 'a function, or left out');
  if (tool.annotations !== undefined && (tool.annotations === null || typeof tool.annotations !== 'object'))
    throw wrong('annotations', 'an object such as { readOnly: true }, or left out');
  return tool.annotations === undefined ? { ...definition, annotations: {} } : definition;
}
