import {
  type Claim,
  type ClaimVerdict,
  evidenceView,
  verifyAgainstEffects,
} from '../../../src/core/agent/claims.js';
import type { Effect } from '../../../src/core/effects.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';

/** One successful tool call per list of effects, numbered from 1, cited as `call #n`. */
export function ledgerOf(...calls: Partial<Effect>[][]): LedgerEntry[] {
  return calls.map((effects, index) => ({
    runId: 'r',
    seq: index + 1,
    ts: '',
    kind: 'tool_call',
    name: 'tool',
    outcome: 'ok',
    data: {
      tool: 'tool',
      target: 't',
      input: {},
      evidence: {
        via: `call #${index + 1}`,
        effects: effects.map((effect) => ({ space: 'http', ...effect })),
      },
    },
  }));
}

/** The effect verifier over a constructed ledger. */
export async function verify(
  claims: Claim[],
  entries: LedgerEntry[],
  options: Parameters<typeof verifyAgainstEffects>[0] = {},
): Promise<ClaimVerdict[]> {
  return verifyAgainstEffects(options)(claims, evidenceView('r', entries, new Set()));
}

/** A verdict's reason, or `verified`. */
export const why = (verdict: ClaimVerdict | undefined) =>
  verdict && !verdict.verified ? verdict.why : 'verified';
