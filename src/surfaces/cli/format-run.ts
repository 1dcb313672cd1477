import pc from 'picocolors';
import { unresolvedIntentWords } from '../../core/intents.js';
import type { LedgerEntry, RunInfo, RunRecord } from '../../core/ledger/entry.js';
import { type RunSummary, summarizeRun } from '../../core/run-summary.js';
import { flagLine } from '../report/flag-line.js';
import { visibleControls, withVisibleControls } from '../visible-controls.js';
import { truncate } from './format-table.js';

/** `label value` for each field that is there; absent fields are left out, never "undefined". */
function present(parts: [label: string, value: unknown][]): string {
  return parts
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([label, value]) => (label ? `${label} ${String(value)}` : String(value)))
    .join('  ');
}

function describe(entry: LedgerEntry, full: boolean): string {
  const compact = (value: unknown, max = 100): string => {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    return full ? text : truncate(text, max);
  };
  switch (entry.kind) {
    case 'tool_call': {
      const { data } = entry;
      const outcome = entry.outcome === 'ok' ? pc.green('ok') : pc.red(String(entry.outcome));
      const error = data.error;
      const evidence = data.evidence ? `  evidence ${compact(data.evidence)}` : '';
      const code = error?.code ?? 'ERROR';
      const why = error
        ? `  ${error.message === undefined ? code : `${code}: ${compact(error.message, 160)}`}`
        : '';
      const input = 'input' in data ? `  input ${compact(data.input)}` : '';
      return `tool   ${data.tool ?? entry.name ?? '?'} ${outcome}${input}${evidence}${why}`;
    }
    case 'model_call': {
      const { data } = entry;
      const tokens =
        data.inputTokens == null && data.outputTokens == null
          ? undefined
          : `in ${data.inputTokens ?? '?'} / out ${data.outputTokens ?? '?'}`;
      return `model  ${present([
        ['', data.model ?? entry.name],
        ['round', data.round],
        ['', data.finishReason],
        ['', tokens],
        ['', data.durationMs === undefined ? undefined : `${data.durationMs} ms`],
      ])}`;
    }
    case 'claim': {
      const { data } = entry;
      const outcome = entry.outcome === 'verified' ? pc.green('verified') : pc.yellow(String(entry.outcome));
      return `claim  ${outcome} ${compact(data.claim)}${data.via ? `  via ${data.via}` : data.why ? `  why ${data.why}` : ''}`;
    }
    case 'contract': {
      const { data } = entry;
      const dropped = data.dropped ?? [];
      return `contract ${data.source ?? entry.name ?? '?'}: ${data.description ?? ''}${dropped.length ? pc.yellow(`  leaves out ${dropped.map((word) => `"${word}"`).join(', ')}`) : ''}`;
    }
    case 'intent': {
      const { data } = entry;
      const resources = (data.resources ?? []).map((item) => `${item.space} ${item.key}`);
      return `intent ${present([
        ['', data.tool ?? entry.name],
        ['', data.action],
        ['', resources.join(', ')],
      ])}`;
    }
    case 'end': {
      const { data } = entry;
      const reason = data.reason ?? entry.outcome ?? '?';
      return `end    ${pc.bold(reason)}${data.status ? ` (${data.status})` : ''}`;
    }
    case 'malformed':
      return pc.red(`malformed entry #${entry.seq} (${entry.storedKind}): ${entry.problems.join('; ')}`);
    default:
      return `${entry.kind.padEnd(6)} ${entry.name ?? ''} ${entry.outcome ?? ''}  ${compact(entry.data, 160)}`;
  }
}

/** The first lines of `runs show`: which run, which agent, what was asked. */
export function runHeadLines(info: RunInfo): string[] {
  const run = withVisibleControls(info);
  return [`${pc.bold(run.id)}  agent ${run.agent}  started ${run.startedAt}`, `task: ${run.task}`, ''];
}

/** One timeline line: seq, time, what happened. `full`: nothing cut. */
export function entryLine(entry: LedgerEntry, full = false): string {
  // JSON shows C0 controls escaped, but --full shows strings as they are, and JSON keeps DEL,
  // C1 and bidi marks: every string of the entry is made safe to print first.
  const shown = withVisibleControls(entry);
  return `${String(shown.seq).padStart(4)}  ${shown.ts.slice(11, 23)}  ${describe(shown, full)}`;
}

/**
 * The lines after the timeline — net effects, unresolved intents, summary, status — from the
 * run's summary (of the whole run, or folded while it streamed).
 */
export function runTailLines(summary: RunSummary): string[] {
  const lines: string[] = [];
  const nets = [...summary.nets.values()].filter((net) => net.change !== undefined);
  if (nets.length > 0) {
    lines.push('', 'net effects:');
    for (const net of nets)
      lines.push(
        visibleControls(
          `  ${net.change?.padEnd(8)} ${net.space} ${net.key}${net.type ? ` (${net.type})` : ''}`,
        ),
      );
  }
  // Shown whether or not the run ended: a killed process leaves these and nothing else.
  const unresolved = summary.unresolved;
  if (unresolved.length > 0) {
    lines.push('', pc.yellow(`unresolved intents (${unresolved.length}):`));
    for (const intent of unresolved)
      lines.push(visibleControls(`  #${intent.seq} ${unresolvedIntentWords(intent)}`));
  }
  const end = summary.end;
  lines.push('');
  if (!end) lines.push('summary: the run has not ended (still running, or its process died).');
  else {
    const { data, outcome } = withVisibleControls(end);
    if (data.summary !== undefined) lines.push(`summary: ${data.summary}`);
    const reason = data.reason ?? outcome;
    const status = [data.status, reason ? `(${reason})` : undefined].filter(Boolean).join(' ');
    if (status) lines.push(`status: ${status}`);
    for (const unmet of data.unmet ?? []) lines.push(`  unmet: ${unmet}`);
    for (const flag of data.flags ?? []) lines.push(`  flagged: ${flagLine(flag)}`);
  }
  return lines;
}

/** A readable timeline of one run, its net effects, and its reason and summary. `full`: nothing cut. */
export function formatRun(record: RunRecord, options: { full?: boolean } = {}): string {
  const full = options.full ?? false;
  return [
    ...runHeadLines(record.run),
    ...record.entries.map((entry) => entryLine(entry, full)),
    ...runTailLines(summarizeRun(record.entries)),
  ].join('\n');
}
