import type { LedgerEntry, TypedEntry } from '../ledger/entry.js';
import { type EndingReason, explainEnding, type RunCounts } from './ending.js';

function countRun(entries: LedgerEntry[]): RunCounts {
  let modelCalls = 0;
  let toolCalls = 0;
  let failures = 0;
  for (const entry of entries) {
    if (entry.kind === 'model_call') modelCalls += 1;
    if (entry.kind === 'tool_call') {
      toolCalls += 1;
      if (entry.outcome !== 'ok') failures += 1;
    }
  }
  return { modelCalls, toolCalls, failures };
}

function describeCall(entry: TypedEntry<'tool_call'>): string {
  const data = entry.data;
  const target = data.target && data.target !== data.tool ? ` ${String(data.target)}` : '';
  const why = data.error?.message ? `: ${data.error.message}` : '';
  return `${String(data.tool)}${target} (${entry.outcome}${why})`;
}

/**
 * The summary of a run that did not end with a verified finish, synthesized from the
 * ledger alone: how many calls, how many succeeded, what failed last, and why it ended.
 */
export function summarizeRun(
  entries: LedgerEntry[],
  reason: EndingReason,
  detail?: string,
  modelRan = true,
): string {
  const counts = countRun(entries);
  const calls = entries.filter((entry) => entry.kind === 'tool_call');
  const succeeded = calls.filter((entry) => entry.outcome === 'ok').length;
  const lastFailure = [...calls].reverse().find((entry) => entry.outcome !== 'ok');
  const parts = [`Run ended: ${reason} — ${explainEnding(reason, modelRan)}${detail ? ` (${detail})` : ''}.`];
  const modelPart = modelRan
    ? `${counts.modelCalls} model call${counts.modelCalls === 1 ? '' : 's'}, `
    : 'No model ran; ';
  parts.push(
    `${modelPart}${counts.toolCalls} tool call${counts.toolCalls === 1 ? '' : 's'}: ${succeeded} succeeded, ${counts.toolCalls - succeeded} failed or were rejected.`,
  );
  if (lastFailure) parts.push(`Last failure: ${describeCall(lastFailure)}.`);
  const guards = entries.filter((entry) => entry.kind === 'guard').map((entry) => String(entry.name));
  if (guards.length > 0) parts.push(`Guards fired: ${[...new Set(guards)].join(', ')}.`);
  return parts.join(' ');
}
