import type { EndingReason, RunResult } from '../../core/agent/ending.js';
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
 * `finished` (requireFinish: false), so the harness adds the `tool_failure` account here.
 */
export function recoveryOf(
  result: Pick<RunResult, 'endingReason' | 'summary'>,
  entries: readonly LedgerEntry[],
): TurnRecovery | undefined {
  if (result.endingReason !== 'finished') return { reason: result.endingReason, summary: result.summary };
  const calls = entries.filter((entry) => entry.kind === 'tool_call');
  const last = calls.at(-1);
  if (!last || last.outcome === 'ok') return undefined;
  return {
    reason: 'tool_failure',
    summary: `Not done. ${summarizeRun([...entries], 'tool_failure', 'the last tool call failed and the model ended its turn')}`,
  };
}
