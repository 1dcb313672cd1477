import type { EndingReason, RunResult, RunStatus } from '../../core/agent/ending.js';
import { summarizeRun } from '../../core/agent/summarize-run.js';
import type { LedgerEntry } from '../../core/ledger/entry.js';

export interface TurnRecovery {
  reason: EndingReason;
  /** Written from the ledger, never from the model's words; never empty. */
  summary: string;
}

/**
 * How a turn that ended badly is told. Every ending but `finished` already carries the
 * core's ledger summary. A chat turn also ends badly when the model answers in text right
 * after a failed tool call that nothing later succeeded: the core ends such a text turn as
 * `finished` (requireFinish: false), so the harness adds the `tool_failure` account here,
 * with its status: `partial` when files changed before the failure (`changed`), else
 * `failed` — and the summary's first words say the same.
 */
export function recoveryOf(
  result: Pick<RunResult, 'endingReason' | 'summary'>,
  entries: readonly LedgerEntry[],
  changed = 0,
): { recovery: TurnRecovery; status?: RunStatus } | undefined {
  if (result.endingReason !== 'finished')
    return { recovery: { reason: result.endingReason, summary: result.summary } };
  const calls = entries.filter((entry) => entry.kind === 'tool_call');
  const last = calls.at(-1);
  if (!last || last.outcome === 'ok') return undefined;
  const told = summarizeRun(
    [...entries],
    'tool_failure',
    'the last tool call failed and the model ended its turn',
  );
  return changed > 0
    ? {
        status: 'partial',
        recovery: {
          reason: 'tool_failure',
          summary: `Partly done: ${changed} file${changed === 1 ? '' : 's'} changed before the last tool call failed. ${told}`,
        },
      }
    : { status: 'failed', recovery: { reason: 'tool_failure', summary: `Not done. ${told}` } };
}
