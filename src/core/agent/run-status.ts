import type { Effect } from '../effects.js';
import type { LedgerEntry } from '../ledger/entry.js';
import type { ToolCallData } from '../ledger/entry-schemas.js';
import type { ToolDefinition } from '../tool.js';
import { PLAN_TOOL } from './contract.js';
import type { ReportedFailure } from './ending.js';
import { FINISH_TOOL, STOP_TOOL } from './finish-spec.js';

export interface UnrecoveredFailure {
  seq: number;
  tool: string;
  intent: string;
  /** Refused before it ran (nothing changed, nothing done). */
  refused?: boolean;
  /** What the refusal said it would accept instead (`details.suggestion`): a success there recovers it. */
  suggestion?: string;
  /** `POST /items/articles → 403: You don't have permission…` */
  description: string;
}

/** The server's or tool's own words for a failure, when the result carries them. */
function failureWords(data: ToolCallData): string {
  const { error, evidence } = data;
  // The result is the tool's own: its shape is not the ledger's.
  const result = data.result as { status?: unknown; message?: unknown } | undefined;
  if (typeof evidence?.via === 'string') {
    const message = typeof result?.message === 'string' ? `: ${result.message}` : '';
    return `${evidence.via}${message}`;
  }
  const target = data.target && data.target !== data.tool ? ` ${String(data.target)}` : '';
  return `${String(data.tool)}${target}${error?.message ? ` (${error.message})` : ''}`;
}

/** Codes of refusals made before the input was read: their intent is unknown. */
const UNREAD_INPUT = new Set(['INVALID_INPUT']);

/**
 * What a call meant to do, for the status rule: a failure is recovered only by a later success
 * with the same intent. Undefined for calls that change nothing (read-only tools). `invokeTool`
 * records it on each `tool_call` entry (`intentKey`), so the rule can be re-run from the ledger.
 */
export function intentOf(tool: ToolDefinition | undefined, data: ToolCallData): string | undefined {
  if (!tool) return undefined;
  const code = data.error?.code;
  // Any later success of the tool recovers a call whose input could not be read.
  if (typeof code === 'string' && UNREAD_INPUT.has(code)) return tool.annotations.readOnly ? undefined : '';
  if (tool.intent) {
    try {
      return tool.intent(data.input as never);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      return String(data.target);
    }
  }
  return tool.annotations.readOnly ? undefined : String(data.target);
}

/**
 * A success recovers failures of the same tool whose intent is the same, or a broader form of
 * it: a failed `POST /suites` (no title) is recovered by `POST /suites "Smoke"`, but a failed
 * `POST /suites "Alpha"` is not recovered by `POST /suites "Beta"`.
 */
function recover(open: Map<string, UnrecoveredFailure>, tool: string, intent: string): void {
  for (const [identity, failure] of open)
    if (
      failure.tool === tool &&
      (failure.intent === '' ||
        failure.intent === intent ||
        intent.startsWith(`${failure.intent} `) ||
        failure.suggestion === intent)
    )
      open.delete(identity);
}

/** The harness's own tools: never part of the status rule (a refused finish is not a failed step). */
const HARNESS_TOOLS = new Set([FINISH_TOOL, STOP_TOOL, PLAN_TOOL]);

/** The intent `invokeTool` recorded, for a tool the caller does not have (a re-check from the ledger). */
function recordedIntent(name: string, data: ToolCallData): string | undefined {
  if (HARNESS_TOOLS.has(name)) return undefined;
  return typeof data.intentKey === 'string' ? data.intentKey : undefined;
}

/** Tool calls recorded before `intentKey` existed: the status rule cannot be re-run for them without the tools. */
export function callsWithoutIntentKey(entries: readonly LedgerEntry[]): number[] {
  return entries
    .filter(
      (entry) =>
        entry.kind === 'tool_call' &&
        !HARNESS_TOOLS.has(String(entry.data.tool)) &&
        !('intentKey' in entry.data),
    )
    .map((entry) => entry.seq);
}

/**
 * Effectful calls that failed or were refused without a later success with the same intent:
 * a retry that worked recovers a failure, other work does not. A refusal (a protected path,
 * a path outside the root, an off-origin URL, a gate) changed nothing — but the step it was
 * meant to take was not taken, so the request it served is not met.
 */
export function unrecoveredFailures(
  entries: readonly LedgerEntry[],
  tools: readonly ToolDefinition[],
): UnrecoveredFailure[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const open = new Map<string, UnrecoveredFailure>();
  for (const entry of entries) {
    if (entry.kind !== 'tool_call') continue;
    const data = entry.data;
    const name = String(data.tool);
    if (entry.outcome === 'ok') {
      // Any effect that names the call it recovers counts, whatever else it records.
      const effects = data.evidence?.effects;
      for (const effect of Array.isArray(effects) ? (effects as (Effect | null)[]) : [])
        if (effect?.recovers) recover(open, effect.recovers.tool, effect.recovers.intent);
    }
    const tool = byName.get(name);
    const intent = tool ? intentOf(tool, data) : recordedIntent(name, data);
    if (intent === undefined) continue;
    const identity = `${name}\u0000${intent}`;
    if (entry.outcome === 'ok') recover(open, name, intent);
    else if (entry.outcome === 'error' || entry.outcome === 'rejected') {
      const suggestion = data.error?.details?.suggestion;
      open.set(identity, {
        seq: entry.seq,
        tool: name,
        intent,
        refused: entry.outcome === 'rejected',
        ...(typeof suggestion === 'string' ? { suggestion } : {}),
        description: failureWords(data),
      });
    }
  }
  return [...open.values()].sort((a, b) => a.seq - b.seq);
}

/** Whether the agent's own failure list mentions this failed call (by target or by type word). */
export function isReported(failure: UnrecoveredFailure, reported: readonly ReportedFailure[]): boolean {
  const haystack = `${failure.intent} ${failure.description}`.toLowerCase();
  return reported.some((item) => {
    const words = [item.target, item.type].filter((word): word is string => Boolean(word?.trim()));
    return words.some((word) => haystack.includes(word.toLowerCase().trim()));
  });
}

export interface StatusInput {
  droppedCount: number;
  failures: UnrecoveredFailure[];
  reported: ReportedFailure[];
  requestProblems: string[];
}

/**
 * `success` means the request was met: every claim verified, no effectful call failed
 * without a later success, nothing reported as failed, and — where the agent knows the
 * request's structure — the net effects meet it. Anything else is `partial`, with why.
 */
export function unmetReasons(input: StatusInput): string[] {
  const unmet: string[] = [];
  if (input.droppedCount > 0)
    unmet.push(
      `${input.droppedCount} claim${input.droppedCount === 1 ? ' was' : 's were'} not backed by evidence`,
    );
  for (const failure of input.failures) {
    unmet.push(
      `${failure.description} ${failure.refused ? 'was refused' : 'failed'} and was never retried successfully${isReported(failure, input.reported) ? ' (reported as failed)' : ' (not reported by the agent)'}`,
    );
  }
  for (const item of input.reported) {
    unmet.push(
      `reported as not done: ${[item.type, item.target].filter(Boolean).join(' ')}${item.type || item.target ? ' — ' : ''}${item.reason}`,
    );
  }
  unmet.push(...input.requestProblems);
  return unmet;
}
