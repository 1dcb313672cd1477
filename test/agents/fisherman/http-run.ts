import { itemFromNet } from '../../../src/core/agent/claims.js';
import type { VerifiedItem } from '../../../src/core/agent/ending.js';
import { type Effect, netEffects } from '../../../src/core/effects.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';

/**
 * A run's request-check context from HTTP effects: one successful call per effect, in order
 * (a create unless the effect says otherwise), and what a finish verified — by default one
 * item per created resource, as the effect verifier builds them.
 */
export function httpRun(...effects: Partial<Effect>[]) {
  const entries: LedgerEntry[] = effects.map((effect, index) => ({
    runId: 'r',
    seq: index + 1,
    ts: '',
    kind: 'tool_call',
    name: 'request',
    outcome: 'ok',
    data: {
      tool: 'request',
      target: effect.kind === 'read' ? 'GET' : 'POST',
      evidence: {
        via: `#${index + 1}`,
        effects: [{ space: 'http', kind: 'created', observed: {}, ...effect }],
      },
    },
  }));
  const net = netEffects(entries);
  const verified: VerifiedItem[] = [...net.values()]
    .filter((item) => item.change === 'created')
    .map((item) => itemFromNet(item));
  return { net, entries, verified };
}
