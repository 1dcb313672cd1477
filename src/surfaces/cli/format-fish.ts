import pc from 'picocolors';
import type { RunResult } from '../../core/agent/ending.js';
import { withVisibleControls } from '../visible-controls.js';
import { formatTable, truncate } from './format-table.js';

/** The verified items as a table, then dropped claims, the ending and the run id. */
export function formatFishResult(
  raw: RunResult & { scope?: { note?: string }; tier?: string; escalation?: string },
): string {
  // Titles, ids and reasons come from the app and the model: shown, never obeyed by the terminal.
  const result = withVisibleControls(raw);
  const lines: string[] = [];
  if (result.scope?.note) lines.push(pc.yellow(result.scope.note), '');
  if (result.contract)
    lines.push(
      `asked (${result.contract.source === 'model' ? 'as the model stated it' : 'read from the request'}): ${result.contract.description}${result.contract.dropped?.length ? pc.yellow(` — leaves out ${result.contract.dropped.map((word) => `"${word}"`).join(', ')}`) : ''}`,
      '',
    );
  if (result.verified.length > 0) {
    const rows = result.verified.map((item) => [
      String(item.type ?? ''),
      item.target,
      truncate(String(item.title ?? ''), 40),
      item.via,
    ]);
    lines.push(formatTable(['TYPE', 'ID', 'TITLE', 'VIA'], rows));
  } else {
    lines.push('No verified items.');
  }
  if (result.dropped.length > 0) {
    lines.push('', pc.yellow(`Dropped claims (${result.dropped.length}):`));
    for (const entry of result.dropped)
      lines.push(`  ${String(entry.claim.type ?? '')} ${String(entry.claim.target)}: ${entry.why}`);
  }
  if (result.duplicates.length > 0) {
    lines.push('', `Duplicate claims, counted once (${result.duplicates.length}):`);
    for (const entry of result.duplicates) lines.push(`  ${entry.why}`);
  }
  if (result.failed.length > 0) {
    lines.push('', pc.yellow(`Reported as not done (${result.failed.length}):`));
    for (const item of result.failed)
      lines.push(
        `  ${[item.type, item.target].filter(Boolean).join(' ')}${item.type || item.target ? ': ' : ''}${item.reason}`,
      );
  }
  if (result.unmet.length > 0) {
    lines.push('', pc.yellow('Why this is not a success:'));
    for (const reason of result.unmet) lines.push(`  - ${reason}`);
  }
  const status =
    result.status === 'success'
      ? pc.green(result.status)
      : result.status === 'partial'
        ? pc.yellow(result.status)
        : pc.red(result.status);
  lines.push(
    '',
    `${status} · ending ${result.endingReason}${result.tier ? ` · ${result.tier} tier` : ''} · run ${result.runId}`,
  );
  lines.push(`summary: ${result.summary}`);
  return lines.join('\n');
}
