import type { RunResult } from '../../core/agent/ending.js';
import { createRedactor } from '../../core/redact.js';
import type { ScoutRepo } from './scout-repo.js';

export interface ScoutReportParts {
  goal: string;
  repo: ScoutRepo;
  result: RunResult;
  /** Items verified outside `result`'s finish (the deterministic tier's finds the run read). */
  extra?: RunResult['verified'];
  established: Set<string>;
  traps: string[];
  priorDigests: number;
  unreachable: string[];
  notFound: string[];
  /** Extra lines at the top of STANDING NOTES (which tier ran, budgets). */
  notes?: string[];
}

function block(title: string, lines: string[]): string {
  return `${title}:\n${lines.length > 0 ? lines.map((line) => `- ${line}`).join('\n') : '- (none)'}`;
}

/**
 * The scout's report: GOAL, REPO, GOVERNS, COMMANDS, TRAPS, STANDING NOTES, UNREACHABLE, NOT
 * FOUND — from verified items only. Printed, written as a digest and handed to agents, so it is
 * scrubbed as the ledger is: record text quoted in it may carry a secret.
 */
export function formatScoutReport(parts: ScoutReportParts): string {
  const { result } = parts;
  const items = [...result.verified, ...(parts.extra ?? [])];
  const governs = items.filter((item) => item.type === 'governs');
  const commands = [...new Set(items.filter((item) => item.type === 'command').map((item) => item.target))];
  const text = [
    `GOAL: ${parts.goal}`,
    `REPO: ${parts.repo.repo ? `${parts.repo.repo} [from ${parts.repo.from}]` : '(none)'}`,
    block(
      'GOVERNS',
      governs.map(
        (item) =>
          `${item.target} [${String(item.label)}] ${parts.established.has(item.target) ? 'already established' : 'newly found'}`,
      ),
    ),
    block('COMMANDS', commands),
    block('TRAPS', parts.traps),
    block('STANDING NOTES', [
      ...(parts.notes ?? []),
      ...(parts.priorDigests > 0
        ? [
            `${parts.priorDigests} earlier digest(s) this session; a starting point, not coverage — the full search ran again.`,
          ]
        : []),
    ]),
    block('UNREACHABLE', [...new Set(parts.unreachable)]),
    block('NOT FOUND', parts.notFound),
    ...(result.dropped.length > 0
      ? [
          block(
            'DROPPED (not backed by this run)',
            result.dropped.map((entry) => `${String(entry.claim.target)}: ${entry.why}`),
          ),
        ]
      : []),
  ].join('\n\n');
  return `${createRedactor().redactText(text)}\n`;
}
