import type { NetEffect } from '../../core/effects.js';
import type { LedgerEntry, RunInfo, RunRecord } from '../../core/ledger/entry.js';
import { type RunSummary, summarizeRun } from '../../core/run-summary.js';
import { visibleControls } from '../visible-controls.js';
import { flagLine } from './flag-line.js';
import { REPORT_STYLE } from './report-style.js';

/**
 * Security: every piece of run data is text, never markup (captured pages and model output land
 * here), and its control characters are shown (a report is also read with `cat`).
 */
export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  return visibleControls(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const cell = (value: unknown, className = '') =>
  `<td${className ? ` class="${className}"` : ''}>${escapeHtml(value ?? '')}</td>`;

function details(label: string, value: unknown): string {
  if (value === undefined) return '';
  return `<details><summary>${escapeHtml(label)}</summary><pre>${escapeHtml(value)}</pre></details>`;
}

const GOOD = new Set(['ok', 'verified', 'success']);
const WARN = new Set(['dropped', 'partial', 'duplicate', 'nudge', 'no_tools', 'rejected']);

function statusClass(outcome: string | undefined): string {
  if (outcome === undefined || outcome === '') return '';
  if (GOOD.has(outcome)) return 'good';
  return WARN.has(outcome) ? 'warn' : 'bad';
}

/** One row of the report's timeline. */
export function timelineRow(entry: LedgerEntry): string {
  const data = entry.data;
  let what = '';
  let body = '';
  switch (entry.kind) {
    case 'tool_call': {
      what = `${String(data.tool)} ${data.target && data.target !== data.tool ? String(data.target) : ''}`;
      const evidence = entry.data.evidence;
      body = [
        evidence?.via ? `<div class="via">${escapeHtml(evidence.via)}</div>` : '',
        details('input', data.input),
        details('evidence', data.evidence),
        details('result', data.result ?? data.resultPreview),
        entry.data.error ? `<div class="bad">${escapeHtml(entry.data.error.message)}</div>` : '',
      ].join('');
      break;
    }
    case 'model_call':
      what = `${String(data.model ?? 'model')} · ${String(data.finishReason ?? '')}`;
      body = `<div>tokens in ${escapeHtml(data.inputTokens)} / out ${escapeHtml(data.outputTokens)}</div>${details('response', data.text ?? data.toolCalls)}`;
      break;
    case 'claim':
      what = escapeHtml(JSON.stringify(data.claim));
      body = `<div>${escapeHtml(data.via ? `via ${String(data.via)}` : String(data.why ?? ''))}</div>`;
      return `<tr><td>${entry.seq}</td><td>${escapeHtml(entry.ts.slice(11, 23))}</td><td>claim</td><td class="${statusClass(entry.outcome)}">${escapeHtml(entry.outcome)}</td><td>${what}${body}</td><td></td></tr>`;
    case 'contract':
      what = `${String(data.source)}: ${String(data.description)}`;
      body = details('contract', data);
      break;
    case 'end':
      what = String(data.reason);
      body = `<div>${escapeHtml(data.summary)}</div>`;
      break;
    default:
      what = `${entry.name ?? ''}`;
      body = details('data', data);
  }
  const duration = typeof data.durationMs === 'number' ? `${data.durationMs} ms` : '';
  // An end is coloured by the run's status, not by its reason.
  const tone = entry.kind === 'end' ? statusClass(String(data.status)) : statusClass(entry.outcome);
  return `<tr><td>${entry.seq}</td><td>${escapeHtml(entry.ts.slice(11, 23))}</td><td>${escapeHtml(entry.kind)}</td><td class="${tone}">${escapeHtml(entry.outcome ?? '')}</td><td><strong>${escapeHtml(what)}</strong>${body}</td><td>${escapeHtml(duration)}</td></tr>`;
}

function effectRow(net: NetEffect): string {
  const last = net.history.at(-1);
  return `<tr>${cell(net.space)}${cell(net.type ?? '')}${cell(net.key)}${cell(net.change ?? (net.read ? 'read' : 'no net change'), net.change ? 'good' : '')}${cell(net.history.map((step) => `${step.kind} #${step.seq}`).join(' → '))}${cell(last?.via ?? '')}</tr>`;
}

/**
 * A self-contained HTML report of one run (no scripts, no network, no external assets):
 * the ending and summary, the net effects, verified vs dropped claims, and the timeline of
 * model and tool calls with each call's input and evidence. Light and dark by the system.
 */
export function renderReport(record: RunRecord): string {
  return `${reportHead(record.run, summarizeRun(record.entries), record.entries.length)}${record.entries.map(timelineRow).join('\n')}${REPORT_FOOT}`;
}

/** Where the timeline's rows end: what follows the last `timelineRow`. */
export const REPORT_FOOT = `</tbody></table>
</section>
</main>
</body>
</html>
`;

/**
 * Everything before the timeline's rows: `summary` is the run's (of the whole run, or folded
 * while it streamed), `entryCount` the run's length.
 */
export function reportHead(run: RunInfo, summary: RunSummary, entryCount: number): string {
  const end = summary.end;
  const status = end ? String(end.data.status) : 'open';
  const nets = [...summary.nets.values()];
  const claims = summary.claims;
  const unmet = end?.data.unmet ?? [];
  const failed = end?.data.failed ?? [];
  const flags = end?.data.flags ?? [];
  const contract = (end?.data.contract ?? summary.contract?.data) as
    | { source?: string; description?: string; dropped?: string[] }
    | undefined;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="color-scheme" content="light dark">
<title>Tally run ${escapeHtml(run.id)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header>
<h1>Run <code>${escapeHtml(run.id)}</code></h1>
<p class="meta">agent <strong>${escapeHtml(run.agent)}</strong> · started ${escapeHtml(run.startedAt)}</p>
<p class="task">${escapeHtml(run.task)}</p>
<p class="ending"><span class="badge ${statusClass(status)}">${escapeHtml(status)}</span> ending <strong>${escapeHtml(end?.data.reason ?? 'not ended')}</strong></p>
<p class="summary">${escapeHtml(end?.data.summary ?? 'The run has not ended (still running, or its process died).')}</p>
${contract ? `<h2>What was asked (contract, ${escapeHtml(contract.source)})</h2><p class="contract">${escapeHtml(contract.description)}${contract.dropped?.length ? ` — <span class="bad">leaves out ${escapeHtml(contract.dropped.map((word) => `"${word}"`).join(', '))}</span>` : ''}</p>` : ''}
${unmet.length ? `<h2>Why this is not a success</h2><ul>${unmet.map((reason) => `<li>${escapeHtml(reason)}</li>`).join('')}</ul>` : ''}
${flags.length ? `<h2>Statements the ledger contradicts</h2><ul>${flags.map((flag) => `<li>${escapeHtml(flagLine(flag))}</li>`).join('')}</ul>` : ''}
${failed.length ? `<h2>Reported as not done</h2><ul>${failed.map((item) => `<li>${escapeHtml([item.type, item.target].filter(Boolean).join(' '))} ${escapeHtml(item.reason)}</li>`).join('')}</ul>` : ''}
</header>
<main>
<section>
<h2>Net effects (${nets.length})</h2>
${nets.length ? `<table><thead><tr><th>space</th><th>type</th><th>resource</th><th>net</th><th>history</th><th>via</th></tr></thead><tbody>${nets.map(effectRow).join('')}</tbody></table>` : '<p>No effects: nothing was read or changed.</p>'}
</section>
<section>
<h2>Claims (${claims.filter((entry) => entry.outcome === 'verified').length} verified, ${claims.filter((entry) => entry.outcome !== 'verified').length} not)</h2>
${claims.length ? `<table><thead><tr><th>verdict</th><th>claim</th><th>evidence or why</th></tr></thead><tbody>${claims.map((entry) => `<tr>${cell(entry.outcome, statusClass(entry.outcome))}${cell(JSON.stringify(entry.data.claim))}${cell(entry.data.via ?? entry.data.why)}</tr>`).join('')}</tbody></table>` : '<p>No claims.</p>'}
</section>
<section>
<h2>Timeline (${entryCount} entries)</h2>
<table class="timeline"><thead><tr><th>#</th><th>time</th><th>kind</th><th>outcome</th><th>what</th><th>duration</th></tr></thead>
<tbody>`;
}
