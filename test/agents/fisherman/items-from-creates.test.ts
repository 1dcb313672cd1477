import { describe, expect, it } from 'vitest';
import { fishermanVerifier, itemsFromCreates } from '../../../src/agents/fisherman/fisherman-verifier.js';
import { evidenceView } from '../../../src/core/agent/claims.js';
import type { Effect } from '../../../src/core/effects.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';

function view(...effects: Partial<Effect>[]) {
  const entries: LedgerEntry[] = effects.map((effect, index) => ({
    runId: 'r',
    seq: index + 1,
    ts: '',
    kind: 'tool_call',
    name: 'request',
    outcome: 'ok',
    data: {
      tool: 'request',
      target: 'x',
      evidence: { via: `#${index + 1}`, effects: [{ space: 'http', kind: 'created', ...effect }] },
    },
  }));
  return evidenceView('r', entries, new Set());
}

const run = view(
  { key: '/suites/1', id: '1', type: 'suite' },
  { key: '/suites/1/tests/2', id: '2', type: 'test' },
  { key: '/notes/3', id: '3' },
  { space: 'file', key: 'suites/4', type: 'suite' },
  { kind: 'updated', key: '/suites/5', id: '5', type: 'suite' },
  { kind: 'read', key: '/suites/6', id: '6', type: 'suite' },
);

describe('when the model claims nothing verifiable, the items are this run’s HTTP creates', () => {
  it('every create that still exists, in order, without a type filter', () => {
    expect(itemsFromCreates(undefined)(run).map((item) => item.resource)).toEqual([
      '/suites/1',
      '/suites/1/tests/2',
      '/notes/3',
    ]);
  });

  it('only the requested types; a create without a type is none of them', () => {
    expect(itemsFromCreates(['suites'])(run)).toEqual([
      {
        target: '1',
        resource: '/suites/1',
        space: 'http',
        effect: 'created',
        type: 'suite',
        via: '#1',
        evidenceSeq: 1,
      },
    ]);
    expect(itemsFromCreates(['milestone', 'test'])(run).map((item) => item.resource)).toEqual([
      '/suites/1/tests/2',
    ]);
    expect(itemsFromCreates([])(run)).toEqual([]);
  });
});

describe('Fisherman’s claims are creates', () => {
  it('an update or a read never verifies a Fisherman claim that names no effect', async () => {
    const verdicts = await fishermanVerifier(
      [{ target: '1', type: 'suite' }, { target: '5' }, { target: '6' }],
      run,
    );
    expect(verdicts.map((verdict) => verdict.verified)).toEqual([true, false, false]);
  });
});
