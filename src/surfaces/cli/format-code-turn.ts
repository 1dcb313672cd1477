import { flagSentence } from '../../agents/coder/chat-record.js';
import type { TurnResult } from '../../agents/coder/run-turn.js';
import type { TurnEvent } from '../../agents/coder/turn-events.js';
import { turnStatusLine } from '../turn-status-line.js';
import { withVisibleControls } from '../visible-controls.js';
import { formatTable } from './format-table.js';

/** A turn for the terminal: the reply, the changes report, any flags, and the chat id. */
export function formatCodeTurn(turn: TurnResult, options: { reply?: boolean } = {}): string {
  // The reply is the model's, paths are the project's: shown, never obeyed by the terminal.
  const result = withVisibleControls(turn);
  const lines = options.reply === false ? [] : [result.reply, ''];
  if (result.changes.length === 0) lines.push('No files changed in this turn.');
  else {
    lines.push(
      formatTable(
        ['PATH', 'CHANGE', 'BYTES', 'SHA256'],
        result.changes.map((row) => [
          row.from ? `${row.from} → ${row.path}` : row.path,
          row.change,
          row.bytes === undefined ? '-' : String(row.bytes),
          row.sha256 ?? '-',
        ]),
      ),
    );
  }
  for (const record of result.decisions?.records ?? [])
    lines.push(`Decision recorded: ${record.title} (${record.path})`);
  if (result.decisions?.note) lines.push(result.decisions.note);
  for (const flag of result.flags) lines.push(`FLAGGED: ${flagSentence(flag)}.`);
  if (result.recovery) lines.push(`Turn ended: ${result.recovery.reason}.`);
  // Flags are told above in full; the other reasons (the request's files) are told here.
  const status = turnStatusLine(result);
  if (status) lines.push(status);
  lines.push(`chat ${result.chatId} · turn ${result.turn} · run ${result.runId}`);
  return lines.join('\n');
}

/** One event of a running turn as a terminal line (tool calls with their evidence, refusals, nudges). */
export function formatTurnEvent(raw: TurnEvent): string | undefined {
  const event = withVisibleControls(raw);
  if (event.type === 'text') return `  … ${event.text.replace(/\s+/g, ' ')}`;
  if (event.type === 'tool-call') {
    const head = `${event.tool}${event.target && event.target !== event.tool ? ` ${event.target}` : ''}`;
    if (event.outcome === 'rejected')
      return `  ✗ refused ${head}: ${event.error?.code ?? 'REJECTED'}: ${event.error?.message ?? ''}`;
    if (event.outcome !== 'ok')
      return `  ! ${head} → ${event.outcome}: ${event.error?.code ?? ''} ${event.error?.message ?? ''}`;
    return `  ✓ ${head}${event.via ? ` — ${event.via}` : ''}`;
  }
  if (event.type === 'nudge') return `  ↻ nudge (${event.why}): ${event.text.replace(/\s+/g, ' ')}`;
  if (event.type === 'guard') return `  ⚑ guard ${event.guard}: ${event.action}`;
  return undefined;
}
