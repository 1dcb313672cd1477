import type { TurnResult } from '../../agents/coder/run-turn.js';
import { formatTable } from './format-table.js';

/** A turn for the terminal: the reply, the changes report, any flags, and the chat id. */
export function formatCodeTurn(result: TurnResult): string {
  const lines = [result.reply, ''];
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
  for (const flag of result.flags)
    lines.push(`FLAGGED: the reply says ${flag.spelling} was ${flag.said}; the ledger shows: ${flag.truth}.`);
  if (result.recovery) lines.push(`Turn ended: ${result.recovery.reason}.`);
  lines.push(`chat ${result.chatId} · turn ${result.turn} · run ${result.runId}`);
  return lines.join('\n');
}
