import { describe, expect, it } from 'vitest';
import { verifyAgainstEffects } from '../../../src/core/agent/claims.js';
import { recomputeVerdict } from '../../../src/core/agent/recompute-verdict.js';
import { runAgent } from '../../../src/core/agent/run-agent.js';
import type { RunRecord } from '../../../src/core/ledger/entry.js';
import { callTool, type ScriptStep, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { itemAgent } from './fixtures.js';

const finish = (summary: string, claims: unknown[], failed?: unknown[]) =>
  callTool('finish', { summary, claims, ...(failed ? { failed } : {}) });

/** Every way a run can end, as a scripted model plays it: each verdict must be reproduced from the ledger. */
const SCRIPTS: Record<string, { steps: ScriptStep[]; status: string }> = {
  success: {
    steps: [callTool('put_item', { id: 'a', value: '1' }), finish('Stored a.', [{ target: 'a' }])],
    status: 'success',
  },
  'unreported failure': {
    steps: [
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('call_api', { path: '/widgets', status: 422 }),
      finish('Made both.', [{ target: 'a' }]),
    ],
    status: 'partial',
  },
  'reported failure': {
    steps: [
      callTool('put_item', { id: 'b', value: '1' }),
      callTool('call_api', { path: '/widgets', status: 422 }),
      finish('Stored b.', [{ target: 'b' }], [{ target: '/widgets', reason: 'validation failed' }]),
    ],
    status: 'partial',
  },
  'recovered by a retry': {
    steps: [
      callTool('call_api', { path: '/widgets', status: 503 }),
      callTool('call_api', { path: '/widgets', status: 201 }),
      callTool('put_item', { id: 'a', value: '1' }),
      finish('Done.', [{ target: 'a', effect: 'created' }]),
    ],
    status: 'success',
  },
  'a dropped claim and a duplicate': {
    steps: [
      callTool('put_item', { id: 'a', value: '1' }),
      finish('Stored a and z.', [{ target: 'a' }, { target: 'a' }, { target: 'z' }]),
    ],
    status: 'partial',
  },
  'a summary count above the items': {
    steps: [
      callTool('put_item', { id: 'a', value: '1' }),
      finish('Created 2 items.', [{ target: 'a', type: 'item' }]),
    ],
    status: 'partial',
  },
  'content named but not claimed': {
    steps: [
      callTool('put_item', { id: 'a', value: 'x' }),
      finish('Stored a containing "hello".', [{ target: 'a' }]),
    ],
    status: 'partial',
  },
  'a rejected finish, then a verified one (two claim batches)': {
    steps: [
      finish('Stored z.', [{ target: 'z' }]),
      callTool('put_item', { id: 'a', value: '1' }),
      finish('Stored a.', [{ target: 'a' }]),
    ],
    status: 'success',
  },
  stopped: {
    steps: [callTool('put_item', { id: 'a', value: '1' }), callTool('stop', { reason: 'enough' })],
    status: 'failed',
  },
  'a text answer after a failure': {
    steps: [
      callTool('call_api', { path: '/widgets', status: 500 }),
      say('It did not work.'),
      say('Still no.'),
    ],
    status: 'failed',
  },
};

describe('recomputeVerdict: a duplicate claim under another spelling', () => {
  it('is re-checked by the key its twin resolved to, not by a spelling only the live run could resolve', async () => {
    const ledger = tempLedger();
    // The live run resolves `./a` to items/a (as the Coder resolves `./src/a.ts` under its root);
    // `tally verify` has no such resolver.
    const { agent } = itemAgent({
      verifier: verifyAgainstEffects({
        resolvers: [
          { space: 'item', canonical: (spelling) => `items/${spelling.replace(/^(\.\/|items\/)/, '')}` },
        ],
      }),
    });
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      finish('Stored a.', [{ target: 'a' }, { target: './a' }]),
    ]);
    const result = await runAgent(agent, 'store a', { ledger, model });
    expect(result.status).toBe('success');
    expect(result.duplicates).toHaveLength(1);
    const again = await recomputeVerdict(ledger.getRun(result.runId));
    expect(again.mismatches).toEqual([]);
    expect(again.recomputed).toEqual(again.recorded);
  });
});

describe('recomputeVerdict: the recorded verdict of every kind of run is reproduced from its ledger', () => {
  for (const [name, script] of Object.entries(SCRIPTS))
    it(name, async () => {
      const ledger = tempLedger();
      const { agent } = itemAgent();
      const result = await runAgent(agent, `task: ${name}`, { ledger, model: scriptedModel(script.steps) });
      expect(result.status).toBe(script.status);
      const again = await recomputeVerdict(ledger.getRun(result.runId));
      expect(again.mismatches).toEqual([]);
      expect(again.matches).toBe(true);
      expect(again.recomputed).toEqual(again.recorded);
      expect(again.recomputed).toMatchObject({ status: result.status, unmet: result.unmet });
    });

  it("a review that lowered the status is applied again from the end entry's checks, and named as not re-checked", async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({ review: () => ({ status: 'failed', unmet: ['the reviewer says no'] }) });
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      finish('Stored a.', [{ target: 'a' }]),
    ]);
    const result = await runAgent(agent, 'store a', { ledger, model });
    expect(result.status).toBe('failed');
    const again = await recomputeVerdict(ledger.getRun(result.runId));
    expect(again.matches).toBe(true);
    expect(again.recomputed).toMatchObject({ status: 'failed', unmet: ['the reviewer says no'] });
    expect(again.notRechecked).toContain(
      "the agent's review is taken as recorded (it may only lower the status)",
    );
  });
});

describe('recomputeVerdict: hand edits are named by their entry', () => {
  async function recorded(): Promise<RunRecord> {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('call_api', { path: '/widgets', status: 422 }),
      callTool('call_api', { path: '/widgets', status: 201 }),
      finish('Stored a.', [{ target: 'a' }]),
    ]);
    const result = await runAgent(agent, 'store a', { ledger, model });
    expect(result.status).toBe('success');
    return ledger.getRun(result.runId);
  }

  it('a retry removed: the failure it recovered is named by its tool call, the status by the end entry', async () => {
    const run = await recorded();
    const retry = run.entries.find(
      (entry) => entry.kind === 'tool_call' && entry.outcome === 'ok' && entry.data.tool === 'call_api',
    );
    const failed = run.entries.find((entry) => entry.kind === 'tool_call' && entry.outcome === 'error');
    const again = await recomputeVerdict({ ...run, entries: run.entries.filter((entry) => entry !== retry) });
    expect(again.recomputed?.status).toBe('partial');
    expect(again.mismatches).toContainEqual({
      seq: retry?.seq,
      kind: 'missing',
      what: `entry #${retry?.seq} is not in the ledger (removed after the run)`,
    });
    expect(again.mismatches).toContainEqual(
      expect.objectContaining({
        seq: failed?.seq,
        kind: 'tool_call',
        tool: 'call_api',
        what: expect.stringMatching(/^unmet in the ledger but not in the end entry: call_api POST \/widgets/),
      }),
    );
    expect(again.mismatches).toContainEqual(
      expect.objectContaining({
        kind: 'end',
        what: 'the end entry records status success, the ledger gives partial',
      }),
    );
  });

  it('a dropped claim flipped to verified is caught by matching it again', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      finish('Stored a and z.', [{ target: 'a' }, { target: 'z' }]),
    ]);
    const result = await runAgent(agent, 'store a and z', { ledger, model });
    const run = ledger.getRun(result.runId);
    const dropped = run.entries.find((entry) => entry.kind === 'claim' && entry.outcome === 'dropped');
    const edited = run.entries.map((entry) =>
      entry === dropped ? { ...entry, outcome: 'verified' } : entry,
    );
    const again = await recomputeVerdict({ ...run, entries: edited });
    expect(again.matches).toBe(false);
    expect(again.mismatches).toEqual([
      expect.objectContaining({
        seq: dropped?.seq,
        kind: 'claim',
        what: expect.stringMatching(
          /^claim z is recorded verified, but the ledger makes it dropped: this run has no effect on z/,
        ),
      }),
    ]);
  });

  it('tool calls recorded before the intent key existed are named as not re-checked, never counted as fine', async () => {
    const run = await recorded();
    const old = run.entries.map((entry) => {
      if (entry.kind !== 'tool_call') return entry;
      const { intentKey: _intentKey, ...data } = entry.data;
      return { ...entry, data };
    });
    const again = await recomputeVerdict({ ...run, entries: old });
    expect(
      again.notRechecked.some((line) =>
        /^3 tool call\(s\) \(#\d+, #\d+, #\d+\) carry no intent key/.test(line),
      ),
    ).toBe(true);
  });
});
