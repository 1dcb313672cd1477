import { z } from 'zod';
import { classifyResult } from './classify-result.js';
import { errorCode, errorMessage, ToolRejectedError } from './errors.js';
import type { FailOpen } from './fail-open.js';
import type { RunRecorder } from './ledger/ledger.js';
import type { Evidence, ToolDefinition } from './tool.js';

export type ToolCallOutcome = 'ok' | 'error' | 'rejected';

export interface ToolCallRecord {
  tool: string;
  target: string;
  input: unknown;
  outcome: ToolCallOutcome;
  result?: unknown;
  evidence?: Evidence;
  error?: { code: string; message: string; details?: Record<string, unknown> };
  durationMs: number;
}

export interface InvokeContext {
  recorder: RunRecorder;
  failOpen: FailOpen;
  signal?: AbortSignal;
  /** Which transport made the call: agent, mcp or cli. */
  source?: string;
  /** A last word before execution (gates, a finished run): return an error to refuse the call. */
  admit?: (toolName: string, input: unknown) => ToolRejectedError | undefined;
}

const RESULT_PREVIEW_CHARS = 4000;

/** True when a value certainly serializes under `budget` characters; walks without allocating. */
function fitsIn(value: unknown, budget: number): boolean {
  let left = budget;
  const visit = (item: unknown): boolean => {
    if (typeof item === 'string') left -= item.length + 2;
    else if (item === null || typeof item !== 'object') left -= 24;
    else if (Array.isArray(item)) {
      left -= 2;
      for (const element of item) if (!visit(element)) return false;
    } else {
      for (const [key, element] of Object.entries(item)) {
        left -= key.length + 4;
        if (!visit(element)) return false;
      }
    }
    return left > 0;
  };
  return visit(value);
}

function ledgerResult(result: unknown): Record<string, unknown> {
  if (result === undefined) return {};
  if (fitsIn(result, RESULT_PREVIEW_CHARS)) return { result };
  const text = JSON.stringify(result) ?? '';
  if (text.length <= RESULT_PREVIEW_CHARS) return { result };
  return { resultPreview: `${text.slice(0, RESULT_PREVIEW_CHARS)}…`, resultChars: text.length };
}

type UnsequencedRecord = Omit<ToolCallRecord, 'durationMs'>;

async function execute(
  tool: ToolDefinition,
  input: unknown,
  target: string,
  context: InvokeContext,
): Promise<UnsequencedRecord> {
  try {
    const outcome = await tool.execute(input, {
      runId: context.recorder.runId,
      ...(context.signal ? { signal: context.signal } : {}),
      failOpen: (component, why) => context.failOpen(component, why, context.recorder.runId),
    });
    const classification = classifyResult(outcome.result);
    return {
      tool: tool.name,
      target,
      input,
      outcome: classification.failed ? 'error' : 'ok',
      result: outcome.result,
      ...(outcome.evidence ? { evidence: outcome.evidence } : {}),
      ...(classification.failed
        ? { error: { code: 'RESULT_FAILED', message: `The result reports failure (${classification.why}).` } }
        : {}),
    };
  } catch (error) {
    const details = error instanceof ToolRejectedError ? error.details : undefined;
    return {
      tool: tool.name,
      target,
      input,
      outcome: error instanceof ToolRejectedError ? 'rejected' : 'error',
      error: { code: errorCode(error), message: errorMessage(error), ...(details ? { details } : {}) },
    };
  }
}

/**
 * The one way any transport runs a tool: validate the input, execute, classify the result
 * (the harness decides failure, not the model), and append a `tool_call` entry.
 */
export async function invokeTool(
  tool: ToolDefinition,
  rawInput: unknown,
  context: InvokeContext,
): Promise<ToolCallRecord> {
  const started = performance.now();
  const parsed = tool.inputSchema.safeParse(rawInput);
  let record: UnsequencedRecord;
  if (!parsed.success) {
    record = {
      tool: tool.name,
      target: tool.name,
      input: rawInput,
      outcome: 'rejected',
      error: {
        code: 'INVALID_INPUT',
        message: `Invalid input for ${tool.name}: ${z.prettifyError(parsed.error)}. Call it again with arguments that match its schema.`,
      },
    };
  } else {
    const target = tool.target ? tool.target(parsed.data) : tool.name;
    const refusal = context.admit?.(tool.name, parsed.data);
    record = refusal
      ? {
          tool: tool.name,
          target,
          input: parsed.data,
          outcome: 'rejected',
          error: { code: refusal.code, message: refusal.message },
        }
      : await execute(tool, parsed.data, target, context);
  }
  const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
  context.recorder.append({
    kind: 'tool_call',
    name: record.tool,
    outcome: record.outcome,
    data: {
      tool: record.tool,
      target: record.target,
      input: record.input,
      ...ledgerResult(
        record.result !== undefined && tool.ledgerView ? tool.ledgerView(record.result) : record.result,
      ),
      ...(record.evidence ? { evidence: record.evidence } : {}),
      ...(record.error ? { error: record.error } : {}),
      durationMs,
      ...(context.source ? { source: context.source } : {}),
    },
  });
  return { ...record, durationMs };
}

/** What the model (or an MCP client) sees of a call: the result, or a reasoned error. */
export function toolResultForModel(record: ToolCallRecord): unknown {
  if (record.outcome === 'ok') return record.result;
  if (record.result !== undefined) return record.result;
  return { ok: false, error: record.error };
}
