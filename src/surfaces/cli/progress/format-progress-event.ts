import pc from 'picocolors';
import type { RunEvent } from '../../../core/agent/run-observer.js';
import { withVisibleControls } from '../../visible-controls.js';
import { truncate } from '../format-table.js';

export interface ProgressStyle {
  /** Inputs, nudges, claims and whole model texts as well. */
  verbose: boolean;
}

/** As many characters of a model's text as a line shows without --verbose. */
export const MODEL_TEXT_LIMIT = 240;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function formatDuration(ms: unknown): string {
  if (typeof ms !== 'number') return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function toolLine(event: Extract<RunEvent, { type: 'entry' }>, style: ProgressStyle): string {
  const { entry } = event;
  const data = entry.data;
  const tool = text(data.tool) ?? entry.name ?? 'tool';
  const target = text(data.target);
  const error = entry.kind === 'tool_call' ? entry.data.error : undefined;
  const mark =
    entry.outcome === 'ok' ? pc.green('✓') : entry.outcome === 'rejected' ? pc.yellow('⊘') : pc.red('✗');
  const head = `${mark} ${pc.bold(tool)}${target && target !== tool ? ` ${truncate(target, 80)}` : ''}`;
  const tail =
    entry.outcome === 'ok'
      ? pc.dim(formatDuration(data.durationMs))
      : `${entry.outcome}${error?.code ? ` ${text(error.code)}` : ''}${error?.message ? `: ${truncate(String(error.message), style.verbose ? 400 : 120)}` : ''}`;
  const input =
    style.verbose && data.input !== undefined
      ? `\n    ${pc.dim(truncate(JSON.stringify(data.input), 300))}`
      : '';
  return `${head} ${pc.dim('·')} ${tail}${input}`;
}

function modelLine(event: Extract<RunEvent, { type: 'entry' }>): string {
  const data = event.entry.data;
  const tokens =
    typeof data.inputTokens === 'number' || typeof data.outputTokens === 'number'
      ? ` · ${data.inputTokens ?? '?'} → ${data.outputTokens ?? '?'} tokens`
      : '';
  return `${pc.cyan('◆')} model ${text(data.model) ?? event.entry.name ?? ''} round ${String(data.round ?? '?')}${tokens} ${pc.dim(`· ${formatDuration(data.durationMs)}`)}`;
}

/**
 * One line (or none) for a run event, as the terminal shows it. Guards, gates and fail-opens
 * always show (they change what the run does); nudges and claims only with --verbose.
 */
export function formatProgressEvent(raw: RunEvent, style: ProgressStyle): string | undefined {
  // Model text, tool targets and errors come from outside: shown, never obeyed by the terminal.
  const event = withVisibleControls(raw);
  if (event.type === 'run-start') {
    const how =
      text(event.meta.model) ?? (text(event.meta.tier) === 'deterministic' ? 'deterministic plan' : '');
    return `${pc.bold('▸')} ${event.agent}${how ? ` (${how})` : ''} ${pc.dim(`run ${event.runId}`)}`;
  }
  if (event.type === 'model-text-delta') return undefined; // shown as it comes: see streamedText
  if (event.type === 'model-text') {
    const said = style.verbose ? event.text : truncate(event.text, MODEL_TEXT_LIMIT);
    return pc.dim(`  “${said}”`);
  }
  const { entry } = event;
  switch (entry.kind) {
    case 'tool_call':
      return toolLine(event, style);
    case 'model_call':
      return modelLine(event);
    case 'guard':
    case 'gate':
      return `${pc.yellow('!')} ${entry.kind} ${entry.name ?? ''}${text(entry.data.detail) ? `: ${truncate(String(entry.data.detail), 160)}` : ''}`;
    case 'fail_open':
      return `${pc.yellow('!')} fail-open ${entry.name ?? ''} ${entry.outcome ?? ''}`;
    case 'nudge':
      return style.verbose ? pc.dim(`  nudge ${entry.name ?? ''}`) : undefined;
    case 'claim':
      return style.verbose
        ? pc.dim(
            `  claim ${entry.outcome ?? ''} ${truncate(JSON.stringify(entry.data.claim ?? entry.data), 160)}`,
          )
        : undefined;
    case 'end': {
      const status = text(entry.data.status) ?? '';
      const color = status === 'success' ? pc.green : status === 'partial' ? pc.yellow : pc.red;
      return `${pc.bold('■')} ${color(status)} ${pc.dim(`· ${entry.outcome ?? ''}`)}`;
    }
    default:
      return undefined;
  }
}

/** What the spinner says while nothing happens: what the run is waiting for now. */
export function waitingText(event: RunEvent, modelDriven: boolean): string | undefined {
  if (event.type === 'model-text' || event.type === 'model-text-delta') return undefined;
  if (event.type === 'entry' && event.entry.kind === 'end') return undefined;
  if (event.type === 'entry' && event.entry.kind === 'model_call')
    return event.entry.data.finishReason === 'tool-calls' ? 'running tools…' : 'checking the answer…';
  return modelDriven ? 'waiting for the model…' : 'running the plan…';
}
