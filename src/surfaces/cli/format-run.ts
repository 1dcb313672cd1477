import pc from 'picocolors';
import { netEffects } from '../../core/effects.js';
import { unresolvedIntents, unresolvedIntentWords } from '../../core/intents.js';
import type { LedgerEntry, RunInfo, RunRecord } from '../../core/ledger/entry.js';
import { flagLine } from '../report/flag-line.js';
import { truncate } from './format-table.js';

function describe(entry: LedgerEntry, full: boolean): string {
  const compact = (value: unknown, max = 100): string => {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    return full ? text : truncate(text, max);
  };
  const data = entry.data;
  switch (entry.kind) {
    case 'tool_call': {
      const outcome = entry.outcome === 'ok' ? pc.green('ok') : pc.red(String(entry.outcome));
      const error = data.error as { code?: string; message?: string } | undefined;
      const evidence = data.evidence ? `  evidence ${compact(data.evidence)}` : '';
      const why = error ? `  ${error.code}: ${compact(error.message, 160)}` : '';
      return `tool   ${String(data.tool)} ${outcome}  input ${compact(data.input)}${evidence}${why}`;
    }
    case 'model_call':
      return `model  ${String(data.model)} round ${String(data.round)}  ${String(data.finishReason)}  in ${String(data.inputTokens)} / out ${String(data.outputTokens)}  ${String(data.durationMs)} ms`;
    case 'claim':
      return `claim  ${entry.outcome === 'verified' ? pc.green('verified') : pc.yellow(String(entry.outcome))} ${compact(data.claim)}  ${data.via ? `via ${String(data.via)}` : `why ${String(data.why)}`}`;
    case 'contract': {
      const dropped = (data.dropped as string[] | undefined) ?? [];
      return `contract ${String(data.source)}: ${String(data.description)}${dropped.length ? pc.yellow(`  leaves out ${dropped.map((word) => `"${word}"`).join(', ')}`) : ''}`;
    }
    case 'intent': {
      const resources = Array.isArray(data.resources)
        ? data.resources.map(
            (item: { space?: unknown; key?: unknown }) => `${String(item.space)} ${String(item.key)}`,
          )
        : [];
      return `intent ${String(data.tool)} ${String(data.action)} ${resources.join(', ')}`;
    }
    case 'end':
      return `end    ${pc.bold(String(data.reason))} (${String(data.status)})`;
    default:
      return `${entry.kind.padEnd(6)} ${entry.name ?? ''} ${entry.outcome ?? ''}  ${compact(data, 160)}`;
  }
}

/** The first lines of `runs show`: which run, which agent, what was asked. */
export function runHeadLines(run: RunInfo): string[] {
  return [`${pc.bold(run.id)}  agent ${run.agent}  started ${run.startedAt}`, `task: ${run.task}`, ''];
}

/** One timeline line: seq, time, what happened. `full`: nothing cut. */
export function entryLine(entry: LedgerEntry, full = false): string {
  return `${String(entry.seq).padStart(4)}  ${entry.ts.slice(11, 23)}  ${describe(entry, full)}`;
}

/**
 * The lines after the timeline — net effects, unresolved intents, summary, status — from the
 * entries that bear on them (all of the run's, or only those `keepForSummary` kept).
 */
export function runTailLines(entries: readonly LedgerEntry[]): string[] {
  const lines: string[] = [];
  const nets = [...netEffects(entries).values()].filter((net) => net.change !== undefined);
  if (nets.length > 0) {
    lines.push('', 'net effects:');
    for (const net of nets)
      lines.push(`  ${net.change?.padEnd(8)} ${net.space} ${net.key}${net.type ? ` (${net.type})` : ''}`);
  }
  // Shown whether or not the run ended: a killed process leaves these and nothing else.
  const unresolved = unresolvedIntents(entries);
  if (unresolved.length > 0) {
    lines.push('', pc.yellow(`unresolved intents (${unresolved.length}):`));
    for (const intent of unresolved) lines.push(`  #${intent.seq} ${unresolvedIntentWords(intent)}`);
  }
  const end = entries.find((entry) => entry.kind === 'end');
  lines.push(
    '',
    end
      ? `summary: ${String(end.data.summary)}`
      : 'summary: the run has not ended (still running, or its process died).',
  );
  if (end) {
    lines.push(`status: ${String(end.data.status)} (${String(end.data.reason)})`);
    for (const reason of (end.data.unmet as string[] | undefined) ?? []) lines.push(`  unmet: ${reason}`);
    for (const flag of (end.data.flags as Record<string, unknown>[] | undefined) ?? [])
      lines.push(`  flagged: ${flagLine(flag)}`);
  }
  return lines;
}

/** A readable timeline of one run, its net effects, and its reason and summary. `full`: nothing cut. */
export function formatRun(record: RunRecord, options: { full?: boolean } = {}): string {
  const full = options.full ?? false;
  return [
    ...runHeadLines(record.run),
    ...record.entries.map((entry) => entryLine(entry, full)),
    ...runTailLines(record.entries),
  ].join('\n');
}
