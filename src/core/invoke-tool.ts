import { randomBytes } from 'node:crypto';
import { intentOf } from './agent/run-status.js';
import { classifyResult } from './classify-result.js';
import { errorCode, errorMessage, isToolRejectedError, TallyError, ToolRejectedError } from './errors.js';
import type { FailOpen } from './fail-open.js';
import { invalidInputMessage } from './invalid-input-message.js';
import type { RunRecorder } from './ledger/ledger.js';
import { monotonicMs } from './monotonic-clock.js';
import type { Evidence, ToolDefinition, ToolIntent } from './tool.js';

export type ToolCallOutcome = 'ok' | 'error' | 'rejected';

export interface ToolCallRecord {
  tool: string;
  target: string;
  input: unknown;
  outcome: ToolCallOutcome;
  result?: unknown;
  evidence?: Evidence;
  error?: { code: string; message: string; details?: Record<string, unknown> };
  /** Ids of the `intent` entries this call committed before changing anything: this entry is their outcome. */
  intents?: string[];
  durationMs: number;
}

export interface InvokeContext {
  recorder: RunRecorder;
  failOpen: FailOpen;
  signal?: AbortSignal;
  /** Which transport made the call: agent, mcp or cli. */
  source?: string;
  /** The model's id for this call (AI SDK `toolCallId`): kept in the entry, so traces can name it. */
  toolCallId?: string;
  /** Overrides the tool's own deadline (ms). */
  timeoutMs?: number;
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

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** The call ran but was abandoned (deadline or the caller's abort): it may have acted. */
class ToolAbandonedError extends TallyError {}

/**
 * A call's abort state. The tool's signal is made only when the tool asks for it: an
 * AbortController's signal costs about 6 µs of CPU to create (issue 22), more than the rest of
 * the deadline, and most calls (a small file read, a write) never read it.
 */
class CallAbort {
  private controller: AbortController | undefined;
  private reason: unknown;
  /** True once the call was abandoned (deadline or the caller's abort). */
  abandoned = false;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      // Asked for after the abandonment: the signal says so from the start, as it would have.
      if (this.abandoned) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abandon(reason?: unknown): void {
    this.abandoned = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/**
 * Runs `execute` under a deadline. The tool gets an abort signal (the caller's, or the
 * deadline's); a tool that ignores it is abandoned, so no call can hold a run forever.
 */
function withDeadline<T>(
  run: (call: CallAbort) => Promise<T>,
  timeoutMs: number,
  toolName: string,
  outer: AbortSignal | undefined,
): Promise<T> {
  const call = new CallAbort();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
      return true;
    };
    const onAbort = () => {
      if (!settle()) return;
      call.abandon(outer?.reason);
      // The caller's reason when it gave one as text (an MCP client's cancel says why).
      const why = typeof outer?.reason === 'string' && outer.reason ? ` (${outer.reason})` : '';
      reject(new ToolAbandonedError('ABORTED', `${toolName} was abandoned: the caller aborted it${why}.`));
    };
    timer = setTimeout(() => {
      if (!settle()) return;
      call.abandon();
      reject(
        new ToolAbandonedError(
          'TIMEOUT',
          `${toolName} did not finish within ${timeoutMs} ms and was abandoned. Try a smaller request, or raise the tool's timeoutMs.`,
          { timeoutMs },
        ),
      );
    }, timeoutMs);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    let work: Promise<T>;
    try {
      work = run(call);
    } catch (error) {
      work = Promise.reject(error);
    }
    // An abandoned call may still settle later; its outcome no longer matters.
    work.then(
      (value) => {
        if (settle()) resolve(value);
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
}

/**
 * Whether `item` holds what JSON cannot carry (a BigInt, a function, a symbol, a cycle). Runs
 * on every call's input, result and evidence: plain loops, and the path to the item as a
 * short array (a few levels deep) rather than a Set.
 */
function needsCopy(item: unknown, path: object[]): boolean {
  const type = typeof item;
  if (type === 'bigint' || type === 'function' || type === 'symbol') return true;
  if (item === null || type !== 'object') return false;
  const object = item as Record<string, unknown>;
  if (path.includes(object)) return true;
  if (typeof object.toJSON === 'function') return false;
  path.push(object);
  let found = false;
  if (Array.isArray(object)) {
    for (let at = 0; at < object.length && !found; at++) found = needsCopy(object[at], path);
  } else {
    // Object.keys with an index (own enumerable keys, as for…in with hasOwn): cheaper for V8's
    // optimizing compiler, which compiles this walk in every run of more than a few calls.
    const keys = Object.keys(object);
    for (let at = 0; at < keys.length && !found; at++) found = needsCopy(object[keys[at] as string], path);
  }
  path.pop();
  return found;
}

/**
 * A copy safe to serialize, made only when needed: BigInts become strings, cycles and
 * functions become markers. A tool's odd result must not cost its ledger entry.
 */
export function jsonSafe(value: unknown): unknown {
  if (!needsCopy(value, [])) return value;
  const copy = (item: unknown, stack: Set<object>): unknown => {
    if (typeof item === 'bigint') return item.toString();
    if (typeof item === 'function' || typeof item === 'symbol') return undefined;
    if (item === null || typeof item !== 'object') return item;
    if (stack.has(item)) return '[cycle]';
    if (typeof (item as { toJSON?: unknown }).toJSON === 'function') return item;
    stack.add(item);
    const out = Array.isArray(item)
      ? item.map((child) => copy(child, stack))
      : Object.fromEntries(Object.entries(item).map(([key, child]) => [key, copy(child, stack)]));
    stack.delete(item);
    return out;
  };
  return copy(value, new Set());
}

async function execute(
  tool: ToolDefinition,
  input: unknown,
  target: string,
  context: InvokeContext,
): Promise<UnsequencedRecord> {
  const intents: string[] = [];
  const recordIntent = (call: CallAbort) => async (intent: ToolIntent) => {
    // An abandoned call must not go on to change anything: its entry is already written.
    if (call.abandoned)
      throw new ToolAbandonedError('ABORTED', `${tool.name} was abandoned before its change was made.`);
    const intentId = randomBytes(8).toString('hex');
    intents.push(intentId);
    context.recorder.append({
      kind: 'intent',
      name: tool.name,
      outcome: 'declared',
      data: {
        intentId,
        tool: tool.name,
        target,
        action: intent.action,
        resources: intent.resources,
        ...(intent.details ? { details: intent.details } : {}),
        ...(context.source ? { source: context.source } : {}),
        ...(context.toolCallId ? { toolCallId: context.toolCallId } : {}),
      },
    });
    if (!(await context.recorder.commit()))
      throw new ToolRejectedError(
        'LEDGER_BUSY',
        `${tool.name} made no change: its intent could not be committed, because another process holds the ledger's write lock. Retry once that process is done, or use another --ledger.`,
      );
    // Abandoned while the commit waited: its entry (naming this intent) says it was abandoned.
    if (call.abandoned)
      throw new ToolAbandonedError('ABORTED', `${tool.name} was abandoned before its change was made.`);
  };
  try {
    const outcome = await withDeadline(
      (call) =>
        tool.execute(input, {
          runId: context.recorder.runId,
          // A getter: the signal is made on the tool's first read (see CallAbort).
          get signal() {
            return call.signal;
          },
          failOpen: (component, why) => context.failOpen(component, why, context.recorder.runId),
          recordIntent: recordIntent(call),
        }),
      context.timeoutMs ?? tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      tool.name,
      context.signal,
    );
    const result = jsonSafe(outcome.result);
    const classification = classifyResult(result);
    return {
      tool: tool.name,
      target,
      input,
      outcome: classification.failed ? 'error' : 'ok',
      result,
      ...(outcome.evidence ? { evidence: jsonSafe(outcome.evidence) as Evidence } : {}),
      ...(classification.failed
        ? { error: { code: 'RESULT_FAILED', message: `The result reports failure (${classification.why}).` } }
        : {}),
      ...(intents.length ? { intents } : {}),
    };
  } catch (error) {
    // Any copy's refusal (a tool may be written against another copy of Tally than the one
    // running it). An abandoned call ran (it may have acted): an error, not a refusal.
    const refused = isToolRejectedError(error);
    const details = refused ? error.details : undefined;
    return {
      tool: tool.name,
      target,
      input,
      outcome: refused ? 'rejected' : 'error',
      error: { code: errorCode(error), message: errorMessage(error), ...(details ? { details } : {}) },
      // A copy: an abandoned call may still declare one later, which then stays unresolved.
      ...(intents.length ? { intents: [...intents] } : {}),
    };
  }
}

/**
 * A call that may change something is not run while the ledger has taken no write past its busy
 * limit: its change could not be recorded (the same rule as an intent that cannot be committed).
 * Read-only calls still run; their entries wait in memory.
 */
function ledgerDownRefusal(tool: ToolDefinition, recorder: RunRecorder): ToolRejectedError | undefined {
  if (tool.annotations.readOnly) return undefined;
  const down = recorder.ledgerDown?.();
  if (!down) return undefined;
  return new ToolRejectedError(
    'LEDGER_BUSY',
    `${tool.name} was not run: the ledger has taken no write for longer than its busy limit, so a change made now could not be recorded (${down.message}). Do not retry changes until it answers.`,
  );
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
  const started = monotonicMs();
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
        message: invalidInputMessage(tool.name, parsed.error, rawInput),
      },
    };
  } else {
    let target = tool.name;
    let targetError: string | undefined;
    try {
      target = tool.target ? tool.target(parsed.data) : tool.name;
    } catch (error) {
      targetError = errorMessage(error);
    }
    const refusal = context.admit?.(tool.name, parsed.data) ?? ledgerDownRefusal(tool, context.recorder);
    record = targetError
      ? {
          tool: tool.name,
          target,
          input: parsed.data,
          outcome: 'error',
          error: {
            code: 'TOOL_DEFINITION_ERROR',
            message: `${tool.name} could not name its target (${targetError}); the call was not run. This is a bug in the tool's definition.`,
          },
        }
      : refusal
        ? {
            tool: tool.name,
            target,
            input: parsed.data,
            outcome: 'rejected',
            error: { code: refusal.code, message: refusal.message },
          }
        : await execute(tool, parsed.data, target, context);
  }
  const durationMs = Math.round((monotonicMs() - started) * 1000) / 1000;
  const input = jsonSafe(record.input);
  // Only an input the schema accepted has the shape the tool's view expects.
  const ledgerInput = parsed.success && tool.ledgerInput ? jsonSafe(tool.ledgerInput(parsed.data)) : input;
  context.recorder.append({
    kind: 'tool_call',
    name: record.tool,
    outcome: record.outcome,
    data: {
      tool: record.tool,
      target: record.target,
      input: ledgerInput,
      // The status rule's view of the call, so `tally verify` can re-run it without the tools.
      intentKey:
        intentOf(tool, { input, target: record.target, ...(record.error ? { error: record.error } : {}) }) ??
        null,
      ...ledgerResult(
        record.result !== undefined && tool.ledgerView ? tool.ledgerView(record.result) : record.result,
      ),
      ...(record.evidence ? { evidence: record.evidence } : {}),
      ...(record.error ? { error: record.error } : {}),
      ...(record.intents ? { intents: record.intents } : {}),
      durationMs,
      ...(context.source ? { source: context.source } : {}),
      ...(context.toolCallId ? { toolCallId: context.toolCallId } : {}),
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
