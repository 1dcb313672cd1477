import { describe, expect, it } from 'vitest';
import { defineAgent } from '../../../src/core/agent/agent-definition.js';
import type { ClaimVerifier, EvidenceView } from '../../../src/core/agent/claims.js';
import type { VerifiedItem } from '../../../src/core/agent/ending.js';
import { readOnlyToolsOf, verifyFinish } from '../../../src/core/agent/verify-finish.js';
import type { RunRecorder } from '../../../src/core/ledger/ledger.js';
import { tempLedger } from '../../helpers.js';
import { itemTools } from './fixtures.js';

/** A run in a real ledger with one create (put_item a) and one read (get_item a). */
function recordedRun(): RunRecorder {
  const recorder = tempLedger().startRun({ agent: 'items', task: 'store a' });
  const effects = (kind: string) => [
    { kind, space: 'item', key: 'items/a', id: 'a', type: 'item', observed: { title: 'A' } },
  ];
  recorder.append({
    kind: 'tool_call',
    name: 'put_item',
    outcome: 'ok',
    data: {
      tool: 'put_item',
      target: 'items/a',
      input: {},
      evidence: { via: 'put_item a', effects: effects('created') },
    },
  });
  recorder.append({
    kind: 'tool_call',
    name: 'get_item',
    outcome: 'ok',
    data: {
      tool: 'get_item',
      target: 'items/a',
      input: {},
      evidence: { via: 'get_item a', effects: effects('read') },
    },
  });
  return recorder;
}

const claimEntries = (recorder: RunRecorder) =>
  recorder
    .entries()
    .filter((entry) => entry.kind === 'claim')
    .map((entry) => ({ outcome: entry.outcome, data: entry.data }));

function agentWith(
  options: { verifier?: ClaimVerifier; itemsFromLedger?: (view: EvidenceView) => VerifiedItem[] } = {},
) {
  return defineAgent({
    name: 'items',
    instructions: 'Store items with put_item.',
    tools: itemTools().tools,
    ...options,
  });
}

const noFailOpen = () => {
  throw new Error('no fail-open expected');
};

describe('a finish is checked against the run’s ledger, and each verdict is recorded', () => {
  it('verified, dropped and duplicate claims are split and each gets a claim entry', async () => {
    const recorder = recordedRun();
    const result = await verifyFinish(agentWith(), recorder, noFailOpen, {
      summary: 's',
      claims: [
        { target: 'a', effect: 'created' },
        { target: 'b', effect: 'created' },
        { target: 'items/a', effect: 'created' },
      ],
    });
    const item = {
      target: 'a',
      resource: 'items/a',
      space: 'item',
      effect: 'created',
      type: 'item',
      title: 'A',
      via: 'put_item a',
      evidenceSeq: 1,
    };
    expect(result).toEqual({
      verified: [item],
      dropped: [{ claim: { target: 'b', effect: 'created' }, why: 'this run has no effect on b' }],
      duplicates: [
        {
          claim: { target: 'items/a', effect: 'created' },
          why: 'duplicate: item a (items/a) was already claimed (claim 1); counted once',
        },
      ],
      problems: [],
    });
    expect(claimEntries(recorder)).toEqual([
      {
        outcome: 'verified',
        data: {
          claim: { target: 'a', effect: 'created' },
          via: 'put_item a',
          evidenceSeq: 1,
          resource: 'items/a',
        },
      },
      {
        outcome: 'dropped',
        data: { claim: { target: 'b', effect: 'created' }, why: 'this run has no effect on b' },
      },
      {
        outcome: 'duplicate',
        data: {
          claim: { target: 'items/a', effect: 'created' },
          why: 'duplicate: item a (items/a) was already claimed (claim 1); counted once',
          // The key its twin resolved to: what `tally verify` re-checks it by.
          resource: 'items/a',
        },
      },
    ]);
  });

  it('the verifier sees which calls were made by read-only tools', async () => {
    const seen: EvidenceView[] = [];
    const verifier: ClaimVerifier = (_claims, view) => {
      seen.push(view);
      return [];
    };
    const recorder = recordedRun();
    const agent = agentWith({ verifier });
    expect([...readOnlyToolsOf(agent)]).toEqual(['get_item', 'slow']);
    await verifyFinish(agent, recorder, noFailOpen, { summary: 's', claims: [] });
    expect(seen[0]?.runId).toBe(recorder.runId);
    expect(seen[0]?.calls.map((call) => [call.tool, call.readOnly])).toEqual([
      ['put_item', false],
      ['get_item', true],
    ]);
  });

  it('a verifier that throws fails closed: every claim is dropped with the reason, and the fail-open is logged', async () => {
    const calls: unknown[][] = [];
    const recorder = recordedRun();
    const agent = agentWith({
      verifier: () => {
        throw new Error('boom');
      },
    });
    const result = await verifyFinish(agent, recorder, (...args) => calls.push(args), {
      summary: 's',
      claims: [{ target: 'a' }, { target: 'b' }],
    });
    expect(result).toEqual({
      verified: [],
      dropped: [
        { claim: { target: 'a' }, why: 'the verifier failed: boom' },
        { claim: { target: 'b' }, why: 'the verifier failed: boom' },
      ],
      duplicates: [],
      problems: [],
    });
    expect(calls).toEqual([['verifier', 'verifier-threw', recorder.runId]]);
    expect(claimEntries(recorder).map((entry) => entry.outcome)).toEqual(['dropped', 'dropped']);
  });
});

describe('items from the ledger when nothing claimed is verifiable', () => {
  const fromLedger = (view: EvidenceView): VerifiedItem[] => [
    {
      target: 'a',
      type: 'item',
      via: `ledger of ${view.runId}`,
      evidenceSeq: 1,
      resource: 'items/a',
    } as VerifiedItem,
  ];

  it('takes the agent’s items and records each as verified from the ledger', async () => {
    const recorder = recordedRun();
    const result = await verifyFinish(agentWith({ itemsFromLedger: fromLedger }), recorder, noFailOpen, {
      summary: 's',
      claims: [{ target: 'nothing' }],
    });
    expect(result.verified).toEqual(fromLedger({ runId: recorder.runId } as EvidenceView));
    expect(result.dropped).toHaveLength(1);
    expect(claimEntries(recorder)).toEqual([
      {
        outcome: 'dropped',
        data: { claim: { target: 'nothing' }, why: 'this run has no effect on nothing' },
      },
      {
        outcome: 'verified',
        data: {
          claim: { target: 'a', type: 'item' },
          via: `ledger of ${recorder.runId}`,
          evidenceSeq: 1,
          resource: 'items/a',
          source: 'ledger',
        },
      },
    ]);
  });

  it('never when a claim was verified', async () => {
    const recorder = recordedRun();
    const result = await verifyFinish(agentWith({ itemsFromLedger: fromLedger }), recorder, noFailOpen, {
      summary: 's',
      claims: [{ target: 'a' }],
    });
    expect(result.verified.map((item) => item.via)).toEqual(['put_item a']);
    expect(claimEntries(recorder)).toHaveLength(1);
  });
});
