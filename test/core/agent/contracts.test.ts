import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ContractSpec } from '../../../src/core/agent/contract.js';
import { runAgent } from '../../../src/core/agent/run-agent.js';
import { runPlan } from '../../../src/core/agent/run-plan.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import { callTool, callTools, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { itemAgent } from './fixtures.js';

const ofKind = (entries: LedgerEntry[], kind: string) => entries.filter((entry) => entry.kind === kind);

/** A library agent's contract: "store items a and b" — the ids it must store. */
const itemsContract: ContractSpec<{ ids: string[] }> = {
  fromRequest: (task) => {
    const match = /^store exactly (\d+) items?: (.+)$/.exec(task);
    if (!match) return undefined;
    const ids = (match[2] as string).split(/\s*,\s*/);
    return {
      description: `${ids.length} items: ${ids.join(', ')}`,
      data: { ids },
      words: [match[1] as string, ...ids],
    };
  },
  plan: {
    description: 'State the ids the request asks you to store, before storing anything.',
    inputSchema: z.object({ ids: z.array(z.string()) }),
    toContract: (input) => ({
      description: `${input.ids.length} items: ${input.ids.join(', ')}`,
      data: { ids: input.ids },
      words: [String(input.ids.length), ...input.ids.map((id) => `"${id}"`), ...input.ids],
    }),
  },
  check: (contract, context) => {
    const ids = (contract.data as { ids: string[] }).ids;
    return ids
      .filter((id) => context.net.get(`item:items/${id}`)?.change === undefined)
      .map((id) => `item ${id} was asked for and not stored`);
  },
};

describe('a model-stated contract is cross-checked against the request', () => {
  it('an under-stated plan ("two" → one item) cannot end success, and the dropped words are named', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({ contract: itemsContract });
    const model = scriptedModel([
      callTool('plan', { ids: ['a'] }),
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('finish', { summary: 'Stored it.', claims: [{ target: 'a' }] }),
    ]);
    const result = await runAgent(agent, 'store two items, "a" and "b"', { ledger, model });
    expect(result.status).toBe('partial');
    expect(result.contract).toMatchObject({ source: 'model', dropped: ['b', 'two'] });
    expect(result.unmet.join(' ')).toContain('leaves out words of the request: "b", "two"');
    const end = ofKind(ledger.entries(result.runId), 'end')[0] as LedgerEntry;
    expect(end.data).toMatchObject({ status: 'partial', contract: { dropped: ['b', 'two'] } });
    const contractEntries = ofKind(ledger.entries(result.runId), 'contract');
    expect(contractEntries).toHaveLength(1);
    expect(contractEntries[0]?.outcome).toBe('incomplete');
  });

  it('the honest twin: every word accounted for and met is a success', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({ contract: itemsContract });
    const model = scriptedModel([
      callTool('plan', { ids: ['a', 'b'] }),
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('put_item', { id: 'b', value: '2' }),
      callTool('finish', { summary: 'Stored both.', claims: [{ target: 'a' }, { target: 'b' }] }),
    ]);
    const result = await runAgent(agent, 'store two items, "a" and "b"', { ledger, model });
    expect(result).toMatchObject({
      status: 'success',
      contract: { source: 'model', description: '2 items: a, b' },
    });
    expect(result.contract?.dropped).toBeUndefined();
  });

  it('a complete plan whose request is not met is partial, naming what is missing', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({ contract: itemsContract });
    const model = scriptedModel([
      callTool('plan', { ids: ['a', 'b'] }),
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('finish', { summary: 'Stored a.', claims: [{ target: 'a' }] }),
    ]);
    const result = await runAgent(agent, 'store two items, "a" and "b"', { ledger, model });
    expect(result.status).toBe('partial');
    expect(result.unmet).toEqual(['item b was asked for and not stored']);
  });

  it('an effectful call before the plan is refused; the contract is fixed once an effect ran', async () => {
    const ledger = tempLedger();
    const { agent, items } = itemAgent({ contract: itemsContract });
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('plan', { ids: ['a'] }),
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('plan', { ids: ['a', 'b'] }),
      callTool('finish', { summary: 'Stored a.', claims: [{ target: 'a' }] }),
    ]);
    const result = await runAgent(agent, 'store two items, "a" and "b"', { ledger, model });
    const calls = ofKind(ledger.entries(result.runId), 'tool_call');
    expect(
      calls.map((call) => [call.name, call.outcome, (call.data.error as { code?: string })?.code]),
    ).toEqual([
      ['put_item', 'rejected', 'PLAN_REQUIRED'],
      ['plan', 'ok', undefined],
      ['put_item', 'ok', undefined],
      ['plan', 'rejected', 'CONTRACT_FIXED'],
      ['finish', 'ok', undefined],
    ]);
    expect(items.get('a')).toBe('1');
    expect(result.status).toBe('partial');
    expect(result.contract?.dropped).toEqual(['b', 'two']);
  });

  it('an agent whose model never states a contract cannot succeed', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({
      contract: {
        ...itemsContract,
        plan: { ...itemsContract.plan!, toContract: itemsContract.plan!.toContract },
      },
    });
    const model = scriptedModel([
      callTool('get_item', { id: 'zz' }),
      say('Nothing to store.'),
      say('Really nothing.'),
    ]);
    const result = await runAgent(agent, 'store two items, "a" and "b"', { ledger, model });
    expect(result.status).not.toBe('success');
  });

  it('a contract read from the request needs no plan, and a plan run records it before its first call', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({ contract: itemsContract });
    const result = await runPlan(
      agent,
      'store exactly 2 items: a, b',
      async (call) => {
        await call('put_item', { id: 'a', value: '1' });
        return { finish: { summary: 'Stored a.', claims: [{ target: 'a' }] } };
      },
      { ledger },
    );
    const entries = ledger.entries(result.runId);
    expect(entries.findIndex((entry) => entry.kind === 'contract')).toBeLessThan(
      entries.findIndex((entry) => entry.kind === 'tool_call'),
    );
    expect(result.contract).toMatchObject({ source: 'request', description: '2 items: a, b' });
    expect(result.unmet).toEqual(['item b was asked for and not stored']);
  });
});

describe('finish checks a settled world', () => {
  it('a call in the same step as finish refuses the finish; the model must finish alone after it returned', async () => {
    const ledger = tempLedger();
    const { agent, items } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: 'hello' }),
      callTools([
        { toolName: 'finish', input: { summary: 'Done.', claims: [{ target: 'a', contains: 'hello' }] } },
        { toolName: 'put_item', input: { id: 'a', value: 'other text' } },
      ]),
      say('I am done.'),
      say('Done, really.'),
    ]);
    const result = await runAgent(agent, 'store a with hello', { ledger, model });
    expect(items.get('a')).toBe('other text');
    expect(result.status).not.toBe('success');
    const finish = ofKind(ledger.entries(result.runId), 'tool_call').find((call) => call.name === 'finish');
    expect(finish).toMatchObject({ outcome: 'rejected', data: { error: { code: 'FINISH_NOT_ALONE' } } });
  });

  it('the honest twin: finish alone after the write succeeds', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: 'hello' }),
      callTool('finish', { summary: 'Done.', claims: [{ target: 'a', contains: 'hello' }] }),
    ]);
    expect((await runAgent(agent, 'store a with hello', { ledger, model })).status).toBe('success');
  });
});

describe('content named in words is checked or refused, never ignored', () => {
  it('a title "containing X" is checked like contains', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: 'goodbye' }),
      callTool('finish', { summary: 'Done.', claims: [{ target: 'a', title: 'item a containing "hello"' }] }),
      callTool('stop', { reason: 'nothing verified' }),
    ]);
    const result = await runAgent(agent, 'store a with hello', { ledger, model });
    expect(result.status).not.toBe('success');
    const claim = ofKind(ledger.entries(result.runId), 'claim')[0];
    expect(String(claim?.data.why)).toContain('does not contain the claimed text "hello"');
  });

  it('content stated only in the summary makes the run partial unless a claim checks it', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const lying = scriptedModel([
      callTool('put_item', { id: 'a', value: 'goodbye' }),
      callTool('finish', { summary: 'Stored a containing "hello".', claims: [{ target: 'a' }] }),
    ]);
    const lied = await runAgent(agent, 'store a with hello', { ledger, model: lying });
    expect(lied.status).toBe('partial');
    expect(lied.unmet.join(' ')).toContain('the summary states content that no claim checks ("hello")');
    const honest = scriptedModel([
      callTool('put_item', { id: 'b', value: 'hello' }),
      callTool('finish', {
        summary: 'Stored b containing "hello".',
        claims: [{ target: 'b', contains: 'hello' }],
      }),
    ]);
    expect((await runAgent(agent, 'store b with hello', { ledger, model: honest })).status).toBe('success');
  });
});

describe('a resource claimed twice is one item', () => {
  it('a summary counting more items than distinct resources is partial', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('finish', { summary: 'Stored 2 items.', claims: [{ target: 'a' }, { target: 'items/a' }] }),
    ]);
    const result = await runAgent(agent, 'store two items', { ledger, model });
    expect(result.status).toBe('partial');
    expect(result.unmet).toEqual(['the summary counts 2 items, but 1 distinct one is backed by evidence']);
    const honest = scriptedModel([
      callTool('put_item', { id: 'c', value: '1' }),
      callTool('finish', { summary: 'Stored 1 item.', claims: [{ target: 'c' }, { target: 'items/c' }] }),
    ]);
    expect((await runAgent(agent, 'store an item', { ledger, model: honest })).status).toBe('success');
  });
});

describe('one verdict: a review lowers the status in the end entry itself', () => {
  it('flags and a recovery land in the end entry and the result alike', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({
      requireFinish: false,
      review: ({ text }) =>
        text?.includes('b')
          ? {
              flags: [{ statement: text, why: 'b was never stored' }],
              unmet: ['the reply says b was stored; it was not'],
            }
          : undefined,
    });
    const model = scriptedModel([callTool('put_item', { id: 'a', value: '1' }), say('Stored a and b.')]);
    const result = await runAgent(agent, 'store a and b', { ledger, model });
    const end = ofKind(ledger.entries(result.runId), 'end')[0] as LedgerEntry;
    expect(result.status).toBe('partial');
    expect(end.data).toMatchObject({
      status: 'partial',
      flags: [{ why: 'b was never stored' }],
      unmet: ['the reply says b was stored; it was not'],
    });
    expect(String(end.data.summary)).toMatch(/^Partly done: the reply says b was stored/);
    expect(ledger.listRuns().find((run) => run.id === result.runId)?.status).toBe('partial');
  });

  it('a review cannot raise a status, and one that throws fails closed', async () => {
    const ledger = tempLedger();
    const raising = itemAgent({ review: () => ({ status: 'success' }) }).agent;
    const failed = await runAgent(raising, 'store a', {
      ledger,
      model: scriptedModel([say('no'), say('no')]),
    });
    expect(failed.status).toBe('failed');
    const throwing = itemAgent({
      requireFinish: false,
      review: () => {
        throw new Error('review broke');
      },
    }).agent;
    const result = await runAgent(throwing, 'hello there, store a', {
      ledger,
      model: scriptedModel([callTool('put_item', { id: 'a', value: '1' }), say('Stored a.')]),
    });
    expect(result.status).toBe('partial');
    expect(result.unmet.join(' ')).toContain('review broke');
  });
});

describe('a text answer is held to the status rule', () => {
  it('a failed step never taken again makes a chat turn partial; a retry that worked does not', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({ requireFinish: false });
    const left = await runAgent(agent, 'post a widget and store a', {
      ledger,
      model: scriptedModel([
        callTool('call_api', { path: '/widgets', status: 422 }),
        callTool('put_item', { id: 'a', value: '1' }),
        say('Stored a.'),
      ]),
    });
    expect(left.status).toBe('partial');
    expect(left.unmet[0]).toMatch(/^call_api POST \/widgets .* failed and was never retried successfully/);
    const retried = await runAgent(agent, 'post a widget and store b', {
      ledger,
      model: scriptedModel([
        callTool('call_api', { path: '/widgets', status: 422 }),
        callTool('call_api', { path: '/widgets', status: 201 }),
        callTool('put_item', { id: 'b', value: '1' }),
        say('Stored b.'),
      ]),
    });
    expect(retried.status).toBe('success');
  });
});
