import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../../../src/core/agent/agent-definition.js';
import { ENDING_REASONS } from '../../../src/core/agent/ending.js';
import { runAgent } from '../../../src/core/agent/run-agent.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import { defineTool } from '../../../src/core/tool.js';
import { callTool, callTools, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { itemAgent } from './fixtures.js';

const kinds = (entries: LedgerEntry[]) => entries.map((entry) => entry.kind);
const endOf = (entries: LedgerEntry[]) => {
  const end = entries.at(-1) as LedgerEntry;
  expect(end.kind).toBe('end');
  return end;
};

/** Every ending that is not a verified finish gets a synthesized, non-empty summary naming the reason. */
function expectSynthesizedSummary(entries: LedgerEntry[], reason: string) {
  const end = endOf(entries);
  expect(end.outcome).toBe(reason);
  expect(String(end.data.summary).length).toBeGreaterThan(20);
  expect(String(end.data.summary)).toContain(reason);
}

describe('ending reasons, as recorded in the ledger', () => {
  it('finished: verified claims carry a via pointer to this run’s evidence', async () => {
    const { agent, items } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 'a1', value: 'x' }, 'Storing a1.'),
      callTool('finish', { summary: 'Stored a1.', claims: [{ target: 'a1', type: 'item' }] }),
    ]);
    const result = await runAgent(agent, 'Store item a1', { ledger, model });
    model.assertComplete();
    expect(items.get('a1')).toBe('x');
    expect(result).toMatchObject({ status: 'success', endingReason: 'finished', dropped: [] });
    expect(result.verified).toEqual([
      expect.objectContaining({ target: 'a1', type: 'item', via: 'put_item a1' }),
    ]);
    const entries = ledger.entries(result.runId);
    expect(kinds(entries)).toEqual(['model_call', 'tool_call', 'model_call', 'claim', 'tool_call', 'end']);
    expect(entries[3]).toMatchObject({
      kind: 'claim',
      outcome: 'verified',
      data: { via: 'put_item a1', evidenceSeq: 2 },
    });
    expect(endOf(entries).data).toMatchObject({ status: 'success', verified: 1, dropped: 0 });
  });

  it('a finish with no evidence is rejected back to the model, which may keep working', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('finish', { summary: 'Stored b2.', claims: [{ target: 'b2' }] }, 'All done.'),
      callTool('put_item', { id: 'b2', value: 'y' }),
      callTool('finish', { summary: 'Stored b2.', claims: [{ target: 'b2' }] }),
    ]);
    const result = await runAgent(agent, 'Store item b2', { ledger, model });
    model.assertComplete();
    expect(result.endingReason).toBe('finished');
    const entries = ledger.entries(result.runId);
    const finishes = entries.filter((entry) => entry.name === 'finish');
    expect(finishes.map((entry) => entry.outcome)).toEqual(['rejected', 'ok']);
    expect(finishes[0]?.data.error).toMatchObject({ code: 'FINISH_REJECTED' });
    // The model saw the rejection with its explanation in the next prompt.
    expect(JSON.stringify(model.calls[1]?.prompt)).toContain('none of your claims is backed by evidence');
    expect(entries.filter((entry) => entry.kind === 'claim').map((entry) => entry.outcome)).toEqual([
      'dropped',
      'verified',
    ]);
  });

  it('finished with a fabricated claim: the claim is dropped, recorded, and the run is partial', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 'c1', value: 'x' }, 'Working.'),
      callTool('finish', { summary: 'Stored c1 and c2.', claims: [{ target: 'c1' }, { target: 'c2' }] }),
    ]);
    const result = await runAgent(agent, 'Store c1 and c2', { ledger, model });
    expect(result.status).toBe('partial');
    expect(result.verified.map((item) => item.target)).toEqual(['c1']);
    expect(result.dropped).toEqual([{ claim: { target: 'c2' }, why: expect.stringContaining('c2') }]);
    const dropped = ledger
      .entries(result.runId)
      .filter((entry) => entry.kind === 'claim' && entry.outcome === 'dropped');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.data).toMatchObject({ claim: { target: 'c2' } });
  });

  it('stopped: the model’s reason is kept and the summary is synthesized from the ledger', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('stop', { reason: 'No endpoint creates widgets.' }, 'Cannot do this.'),
    ]);
    const result = await runAgent(agent, 'Create a widget', { ledger, model });
    expect(result).toMatchObject({ status: 'failed', endingReason: 'stopped' });
    expect(result.summary).toContain('No endpoint creates widgets.');
    expectSynthesizedSummary(ledger.entries(result.runId), 'stopped');
  });

  it('round_cap: the run ends at the cap with a summary of what happened', async () => {
    const { agent } = itemAgent({ guards: { maxRounds: 4, silence: { rounds: 3, toolCalls: 6 } } });
    const ledger = tempLedger();
    const model = scriptedModel(
      ['a', 'b', 'c', 'd', 'e'].map((id) => callTool('put_item', { id, value: id }, `Storing ${id}.`)),
    );
    const result = await runAgent(agent, 'Store many items', { ledger, model });
    expect(result.endingReason).toBe('round_cap');
    expect(model.remaining).toBe(1);
    const entries = ledger.entries(result.runId);
    expect(entries.filter((entry) => entry.kind === 'model_call')).toHaveLength(4);
    expectSynthesizedSummary(entries, 'round_cap');
    expect(String(endOf(entries).data.summary)).toContain('4 tool calls: 4 succeeded');
  });

  it('a run that changed things and never finished says what it left behind; the status stays failed', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 'left1', value: 'x' }),
      callTool('get_item', { id: 'left1' }),
      callTool('stop', { reason: 'Ran out of ideas.' }),
    ]);
    const result = await runAgent(agent, 'Store items left1 and left2', { ledger, model });
    expect(result).toMatchObject({ status: 'failed', endingReason: 'stopped', verified: [] });
    // Named from the ledger's net effects: what was changed, not what was only read.
    expect(result.summary).toMatch(/Made: created left1\.$/);
    expect(String(endOf(ledger.entries(result.runId)).data.summary)).toBe(result.summary);
    // A text answer after a change names it too.
    const answered = await runAgent(agent, 'Store item left3', {
      ledger,
      model: scriptedModel([
        callTool('put_item', { id: 'left3', value: 'x' }),
        say('Stored left3.'),
        say('Stored.'),
      ]),
    });
    expect(answered.summary).toContain('Made: created left3.');
  });

  it('repeated_failure: five identical failing calls stop at four', async () => {
    const { agent } = itemAgent({ guards: { loop: { repeats: 10, window: 10 } } });
    const ledger = tempLedger();
    const model = scriptedModel(
      [1, 2, 3, 4, 5].map(() => callTool('call_api', { path: '/api/suites', status: 422 }, 'Trying.')),
    );
    const result = await runAgent(agent, 'Create a suite', { ledger, model });
    expect(result.endingReason).toBe('repeated_failure');
    expect(model.remaining).toBe(1);
    const entries = ledger.entries(result.runId);
    const calls = entries.filter((entry) => entry.kind === 'tool_call');
    expect(calls).toHaveLength(4);
    expect(calls.every((entry) => entry.outcome === 'error')).toBe(true);
    expect(entries.find((entry) => entry.kind === 'guard')).toMatchObject({
      name: 'repeated_failure',
      outcome: 'end',
    });
    expectSynthesizedSummary(entries, 'repeated_failure');
    expect(String(endOf(entries).data.summary)).toContain('call_api POST /api/suites');
  });

  it('a success in between resets the repeated-failure count for that target', async () => {
    const { agent } = itemAgent({ guards: { loop: { repeats: 10, window: 10 } } });
    const ledger = tempLedger();
    const model = scriptedModel([
      ...[1, 2, 3].map(() => callTool('call_api', { path: '/api/x', status: 500 }, 'Trying.')),
      callTool('call_api', { path: '/api/x', status: 201 }, 'Trying.'),
      ...[1, 2, 3].map(() => callTool('call_api', { path: '/api/x', status: 500 }, 'Trying.')),
      callTool('stop', { reason: 'server keeps failing' }),
    ]);
    const result = await runAgent(agent, 'Create x', { ledger, model });
    model.assertComplete();
    expect(result.endingReason).toBe('stopped');
  });

  it('loop: the same call with the same arguments is warned once, then ends the run', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel(
      [1, 2, 3, 4, 5].map(() => callTool('put_item', { id: 'same', value: 'v' }, 'Storing.')),
    );
    const result = await runAgent(agent, 'Store same', { ledger, model });
    expect(result.endingReason).toBe('loop');
    const entries = ledger.entries(result.runId);
    const guards = entries.filter((entry) => entry.kind === 'guard' && entry.name === 'loop');
    expect(guards.map((entry) => entry.outcome)).toEqual(['nudge', 'end']);
    const nudge = entries.find((entry) => entry.kind === 'nudge' && entry.name === 'loop');
    expect(nudge).toBeDefined();
    // The warning reached the model before its fourth call.
    expect(JSON.stringify(model.calls[3]?.prompt)).toContain('same call with the same arguments');
    expectSynthesizedSummary(entries, 'loop');
  });

  it('not a loop: the same call making a new resource each time (three identical orders) is progress', async () => {
    const made: string[] = [];
    const placeOrder = defineTool({
      name: 'place_order',
      description: 'Place one order.',
      inputSchema: z.object({ sku: z.string() }),
      annotations: {},
      execute: async ({ sku }) => {
        const id = `o${made.push(sku)}`;
        return {
          result: { ok: true, id },
          evidence: {
            via: `order ${id}`,
            effects: [{ kind: 'created', space: 'shop', key: `orders/${id}`, id, type: 'order' }],
          },
        };
      },
    });
    const agent = defineAgent({
      name: 'shop',
      instructions: 'Place orders with place_order, then call finish.',
      tools: [placeOrder],
    });
    const ledger = tempLedger();
    const model = scriptedModel([
      ...[1, 2, 3, 4].map(() => callTool('place_order', { sku: 'tea' }, 'Placing an order.')),
      callTool('finish', {
        summary: 'Placed 4 orders.',
        claims: ['o1', 'o2', 'o3', 'o4'].map((target) => ({ target })),
      }),
    ]);
    const result = await runAgent(agent, 'Place 4 orders of tea', { ledger, model });
    model.assertComplete();
    expect(result).toMatchObject({ status: 'success', endingReason: 'finished' });
    expect(made).toHaveLength(4);
    expect(ledger.entries(result.runId).filter((entry) => entry.kind === 'guard')).toEqual([]);
  });

  it('no_text: a model step with neither text nor tool calls ends the run', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([callTool('put_item', { id: 'n', value: 'v' }, 'Storing.'), { text: '' }]);
    const result = await runAgent(agent, 'Store n', { ledger, model });
    expect(result.endingReason).toBe('no_text');
    expectSynthesizedSummary(ledger.entries(result.runId), 'no_text');
  });

  it('tool_failure: the model gives up in text after a failed call, even after the finish nudge', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('get_item', { id: 'missing' }, 'Reading.'),
      say('It is not there.'),
      say('Still not there.'),
    ]);
    const result = await runAgent(agent, 'Read item missing', { ledger, model });
    model.assertComplete();
    expect(result.endingReason).toBe('tool_failure');
    const entries = ledger.entries(result.runId);
    expect(entries.find((entry) => entry.kind === 'guard')).toMatchObject({
      name: 'finish_required',
      outcome: 'nudge',
    });
    expect(JSON.stringify(model.calls[2]?.prompt)).toContain('without calling finish or stop');
    expectSynthesizedSummary(entries, 'tool_failure');
    expect(String(endOf(entries).data.summary)).toContain(
      'get_item items/missing (rejected: No item "missing".)',
    );
  });

  it('stopped: a text-only ending with no failure is the model stopping without finish', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([say('I would rather not.'), say('Really, no.')]);
    const result = await runAgent(agent, 'Store item z', { ledger, model });
    expect(result.endingReason).toBe('stopped');
    expectSynthesizedSummary(ledger.entries(result.runId), 'stopped');
  });

  it('model_error: a failing model call ends the run with the error in the summary', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 'm', value: 'v' }, 'Storing.'),
      { error: 'upstream 503: overloaded' },
    ]);
    const result = await runAgent(agent, 'Store m', { ledger, model, maxRetries: 0 });
    expect(result.endingReason).toBe('model_error');
    expectSynthesizedSummary(ledger.entries(result.runId), 'model_error');
    expect(result.summary).toContain('upstream 503: overloaded');
  });

  it('aborted: aborting mid-tool ends the run as aborted, with the ledger intact', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const controller = new AbortController();
    const model = scriptedModel([callTool('slow', {}, 'Waiting.'), say('never reached')]);
    const pending = runAgent(agent, 'Wait', { ledger, model, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(result.endingReason).toBe('aborted');
    expectSynthesizedSummary(ledger.entries(result.runId), 'aborted');
  });

  it('parallel tool calls in one step all land in the ledger with distinct sequence numbers', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const ids = Array.from({ length: 12 }, (_, index) => `p${index}`);
    const model = scriptedModel([
      callTools(
        ids.map((id) => ({ toolName: 'put_item', input: { id, value: id } })),
        'Storing twelve.',
      ),
      callTool('finish', { summary: 'Stored twelve.', claims: ids.map((target) => ({ target })) }),
    ]);
    const result = await runAgent(agent, 'Store twelve', { ledger, model });
    expect(result.verified).toHaveLength(12);
    const seqs = ledger.entries(result.runId).map((entry) => entry.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  });

  it('covers every ending reason in the closed set', () => {
    expect([...ENDING_REASONS].sort()).toEqual(
      [
        'aborted',
        'finished',
        'loop',
        'model_error',
        'no_text',
        'repeated_failure',
        'round_cap',
        'stopped',
        'tool_failure',
      ].sort(),
    );
  });
});

describe('a run always ends, whatever the agent’s code does', () => {
  it('a hook that throws while the run is judged still leaves one end entry, failed, saying why', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({
      checkRequest: () => {
        throw new Error('the hook broke');
      },
    });
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('finish', { summary: 'Stored a.', claims: [{ target: 'a' }] }),
    ]);
    await expect(runAgent(agent, 'store a', { ledger, model })).rejects.toThrow('the hook broke');
    const [run] = ledger.listRuns({});
    const entries = ledger.getRun(run?.id as string).entries;
    const ends = entries.filter((entry) => entry.kind === 'end');
    expect(ends).toHaveLength(1);
    expect(ends[0]?.data).toMatchObject({ status: 'failed', reason: 'aborted' });
    expect(String(ends[0]?.data.summary)).toContain('could not be judged (the hook broke)');
  });

  it('a tool defined in plain JavaScript without annotations runs as one that may change things', async () => {
    const ledger = tempLedger();
    const { agent: base } = itemAgent();
    const plain = base.tools.map(({ annotations: _left, ...tool }) => tool) as never[];
    const { agent } = itemAgent({ tools: plain });
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('finish', { summary: 'Stored a.', claims: [{ target: 'a' }] }),
    ]);
    const result = await runAgent(agent, 'store a', { ledger, model });
    expect(result.status).toBe('success');
    expect(agent.tools.every((tool) => tool.annotations !== undefined)).toBe(true);
  });

  it('a tool definition of the wrong shape is refused when the agent is defined, naming the field', () => {
    const { agent: base } = itemAgent();
    const tool = base.tools[0] as unknown as Record<string, unknown>;
    for (const [field, value, says] of [
      ['execute', undefined, 'execute must be an async function'],
      ['inputSchema', { type: 'object' }, 'inputSchema must be a zod schema'],
      ['description', 42, 'description must be a string'],
      ['annotations', 'readOnly', 'annotations must be an object'],
      ['target', 'src/a.ts', 'target must be a function'],
    ] as const)
      expect(() => itemAgent({ tools: [{ ...tool, [field]: value } as never] }), field).toThrow(says);
  });
});
