import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineAgent } from '../../../src/core/agent/agent-definition.js';
import { runAgent } from '../../../src/core/agent/run-agent.js';
import { AgentConfigError, PromptLintError } from '../../../src/core/errors.js';
import { callTool, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { itemAgent, itemTools } from './fixtures.js';

describe('silence nudge', () => {
  it('after three silent rounds the model is asked for a status line, once, and it is recorded', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 's1', value: 'v' }),
      callTool('put_item', { id: 's2', value: 'v' }),
      callTool('put_item', { id: 's3', value: 'v' }),
      callTool('put_item', { id: 's4', value: 'v' }, 'Stored three so far, one more.'),
      callTool('finish', {
        summary: 'Stored four.',
        claims: ['s1', 's2', 's3', 's4'].map((target) => ({ target })),
      }),
    ]);
    const result = await runAgent(agent, 'Store four items', { ledger, model });
    model.assertComplete();
    expect(result.endingReason).toBe('finished');
    const entries = ledger.entries(result.runId);
    expect(
      entries.filter((entry) => entry.kind === 'guard').map((entry) => [entry.name, entry.outcome]),
    ).toEqual([['silence', 'nudge']]);
    expect(entries.filter((entry) => entry.kind === 'nudge')).toHaveLength(1);
    expect(JSON.stringify(model.calls[2]?.prompt)).not.toContain('Status check');
    expect(JSON.stringify(model.calls[3]?.prompt)).toContain('Status check');
    // The nudge stays in the conversation for later steps too.
    expect(JSON.stringify(model.calls[4]?.prompt)).toContain('Status check');
  });

  it('six silent tool calls in fewer rounds also trigger it', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const six = Array.from({ length: 6 }, (_, index) => ({
      toolName: 'put_item',
      input: { id: `t${index}`, value: 'v' },
    }));
    const model = scriptedModel([{ toolCalls: six }, callTool('stop', { reason: 'enough' }, 'Stopping.')]);
    const result = await runAgent(agent, 'Store six', { ledger, model });
    expect(
      ledger.entries(result.runId).some((entry) => entry.kind === 'guard' && entry.name === 'silence'),
    ).toBe(true);
  });

  it('an agent whose nudge can never fire before its round cap is rejected at construction', () => {
    const { tools } = itemTools();
    const build = () =>
      defineAgent({ name: 'tight', instructions: 'Use put_item.', tools, guards: { maxRounds: 3 } });
    expect(build).toThrow(AgentConfigError);
    expect(build).toThrow(/can never fire before the round cap of 3/);
    expect(() =>
      defineAgent({
        name: 'tight',
        instructions: 'Use put_item.',
        tools,
        guards: { maxRounds: 3, silence: false },
      }),
    ).not.toThrow();
  });
});

describe('conversational first turn', () => {
  it('a greeting gets round one without tools, and the guard firing is recorded', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([say('Hello! What should I store?')]);
    const result = await runAgent(agent, 'hi there', { ledger, model });
    model.assertComplete();
    expect(model.calls[0]?.tools ?? []).toEqual([]);
    expect(result.endingReason).toBe('finished');
    expect(result.verified).toEqual([]);
    expect(ledger.entries(result.runId)[0]).toMatchObject({
      kind: 'guard',
      name: 'conversational_first_turn',
      outcome: 'no_tools',
      data: { preview: 'hi there' },
    });
  });

  it('a request for action gets tools in round one', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([callTool('stop', { reason: 'nope' }, 'Stopping.')]);
    await runAgent(agent, 'Hi, please store item q', { ledger, model });
    expect(model.calls[0]?.tools?.map((tool) => tool.name)).toContain('put_item');
  });

  it('the classifier is replaceable', async () => {
    const { agent } = itemAgent({ isConversational: () => false });
    const ledger = tempLedger();
    const model = scriptedModel([callTool('stop', { reason: 'nope' }, 'Stopping.')]);
    await runAgent(agent, 'hello', { ledger, model });
    expect(model.calls[0]?.tools?.length).toBeGreaterThan(0);
  });
});

describe('gates', () => {
  it('a gated tool is denied with a message naming the tool that satisfies the gate', async () => {
    const { agent, items } = itemAgent({
      gates: [{ name: 'look-first', kind: 'requires', tools: ['put_item'], requires: 'get_item' }],
    });
    items.set('seed', 'v');
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 'g1', value: 'v' }, 'Storing.'),
      callTool('get_item', { id: 'seed' }),
      callTool('put_item', { id: 'g1', value: 'v' }),
      callTool('finish', { summary: 'Stored g1.', claims: [{ target: 'g1' }] }),
    ]);
    const result = await runAgent(agent, 'Store g1', { ledger, model });
    model.assertComplete();
    expect(result.endingReason).toBe('finished');
    const entries = ledger.entries(result.runId);
    const firstPut = entries.find((entry) => entry.kind === 'tool_call' && entry.name === 'put_item');
    expect(firstPut).toMatchObject({ outcome: 'rejected', data: { error: { code: 'GATE_DENIED' } } });
    expect(JSON.stringify(firstPut?.data.error)).toContain('Call get_item first');
    expect(entries.find((entry) => entry.kind === 'gate')).toMatchObject({
      name: 'look-first',
      outcome: 'denied',
    });
    expect(items.get('g1')).toBe('v');
  });

  it('a gate whose satisfying tool is not registered releases and records a fail-open', async () => {
    const { agent } = itemAgent({
      gates: [{ name: 'needs-scout', kind: 'requires', tools: ['put_item'], requires: 'scout' }],
    });
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 'r1', value: 'v' }, 'Storing.'),
      callTool('finish', { summary: 'Stored r1.', claims: [{ target: 'r1' }] }),
    ]);
    const result = await runAgent(agent, 'Store r1', { ledger, model });
    expect(result.endingReason).toBe('finished');
    const entries = ledger.entries(result.runId);
    expect(entries.find((entry) => entry.kind === 'gate')).toMatchObject({ outcome: 'released' });
    expect(entries.find((entry) => entry.kind === 'fail_open')).toMatchObject({
      outcome: 'gate-tool-unregistered',
    });
    const log = readFileSync(join(dirname(ledger.path), 'fail-open.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(log[0] as string)).toMatchObject({
      component: 'gate',
      why: 'gate-tool-unregistered',
      session: result.runId,
    });
  });

  it('check before finish is asked at most once per turn', async () => {
    const { agent } = itemAgent({
      gates: [{ name: 'am-i-done', kind: 'check_before_finish', check: 'get_item' }],
    });
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 'f1', value: 'v' }, 'Storing.'),
      callTool('finish', { summary: 'Stored f1.', claims: [{ target: 'f1' }] }),
      callTool('finish', { summary: 'Stored f1.', claims: [{ target: 'f1' }] }),
    ]);
    const result = await runAgent(agent, 'Store f1', { ledger, model });
    model.assertComplete();
    expect(result.endingReason).toBe('finished');
    const gates = ledger.entries(result.runId).filter((entry) => entry.kind === 'gate');
    expect(gates).toHaveLength(1);
    expect(gates[0]).toMatchObject({ outcome: 'denied', data: { satisfiedBy: 'get_item' } });
  });
});

describe('prompt lint and construction checks', () => {
  it('a misspelt tool name in the prompt fails loudly with a suggestion', () => {
    const { tools } = itemTools();
    const build = () =>
      defineAgent({ name: 'typo', instructions: 'First call get_iten, then put_item, then finish.', tools });
    expect(build).toThrow(PromptLintError);
    expect(build).toThrow(/"get_iten" \(did you mean "get_item"\?\)/);
  });

  it('a call-shaped name that is not a tool fails; plain field names pass', () => {
    const { tools } = itemTools();
    expect(() =>
      defineAgent({ name: 'x', instructions: 'Use delete_everything(id) when done.', tools }),
    ).toThrow(PromptLintError);
    expect(() =>
      defineAgent({ name: 'x', instructions: 'Each item has created_at and a value; use put_item.', tools }),
    ).not.toThrow();
  });

  it('the harness tools finish and stop are reserved names', () => {
    const { tools } = itemTools();
    const finish = { ...tools[0], name: 'finish' } as (typeof tools)[0];
    expect(() => defineAgent({ name: 'x', instructions: 'x', tools: [finish] })).toThrow(/reserved/);
  });
});

describe('tool-call bookkeeping', () => {
  it('an unknown tool name and an invalid input are rejected and recorded, not thrown', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_iten', { id: 'u', value: 'v' }, 'Storing.'),
      callTool('put_item', { id: 42 }),
      callTool('stop', { reason: 'confused' }),
    ]);
    const result = await runAgent(agent, 'Store u', { ledger, model });
    model.assertComplete();
    const calls = ledger.entries(result.runId).filter((entry) => entry.kind === 'tool_call');
    expect(
      calls.map((entry) => [
        entry.name,
        entry.outcome,
        (entry.data.error as { code?: string } | undefined)?.code,
      ]),
    ).toEqual([
      ['put_iten', 'rejected', 'UNKNOWN_TOOL'],
      ['put_item', 'rejected', 'INVALID_INPUT'],
      ['stop', 'ok', undefined],
    ]);
  });

  it('a status >= 400 in a result is a failure even without ok:false; a missing ok is not', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('call_api', { path: '/a', status: 404 }, 'Calling.'),
      callTool('call_api', { path: '/b', status: 201 }),
      callTool('stop', { reason: 'done probing' }),
    ]);
    const result = await runAgent(agent, 'Probe', { ledger, model });
    const calls = ledger.entries(result.runId).filter((entry) => entry.name === 'call_api');
    expect(calls.map((entry) => entry.outcome)).toEqual(['error', 'ok']);
  });
});
