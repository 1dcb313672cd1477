import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../../../src/core/agent/agent-definition.js';
import { runAgent } from '../../../src/core/agent/run-agent.js';
import { runPlan } from '../../../src/core/agent/run-plan.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import { defineTool } from '../../../src/core/tool.js';
import { callTool, callTools, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { itemAgent, itemTools } from './fixtures.js';

const toolCalls = (entries: LedgerEntry[]) => entries.filter((entry) => entry.kind === 'tool_call');
const ends = (entries: LedgerEntry[]) => entries.filter((entry) => entry.kind === 'end');

describe('success means the request was met', () => {
  it('a failed effectful call without a later success makes a verified finish partial, whether reported or not', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('call_api', { path: '/widgets', status: 422 }),
      callTool('finish', { summary: 'Made both.', claims: [{ target: 'a' }] }),
    ]);
    const unreported = await runAgent(agent, 'store a and post a widget', { ledger, model });
    expect(unreported.status).toBe('partial');
    expect(unreported.unmet).toEqual([
      'call_api POST /widgets (The result reports failure (status 422).) failed and was never retried successfully (not reported by the agent)',
    ]);
    expect(unreported.summary).toMatch(/^Partly done: call_api POST \/widgets/);
    expect(unreported.summary).toContain('The agent\'s own summary: "Made both."');

    const reportedModel = scriptedModel([
      callTool('put_item', { id: 'b', value: '1' }),
      callTool('call_api', { path: '/widgets', status: 422 }),
      callTool('finish', {
        summary: 'Stored b; the widget failed.',
        claims: [{ target: 'b' }],
        failed: [{ target: '/widgets', reason: 'validation failed' }],
      }),
    ]);
    const reported = await runAgent(agent, 'store b and post a widget', { ledger, model: reportedModel });
    expect(reported.status).toBe('partial');
    expect(reported.failed).toEqual([{ target: '/widgets', reason: 'validation failed' }]);
    expect(reported.unmet).toEqual([
      expect.stringMatching(/\(reported as failed\)$/),
      'reported as not done: /widgets — validation failed',
    ]);
    const end = ledger.entries(reported.runId).at(-1) as LedgerEntry;
    expect(end.data).toMatchObject({ status: 'partial', failed: [{ target: '/widgets' }] });
  });

  it('a retry of the same call that succeeds recovers the failure', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('call_api', { path: '/widgets', status: 503 }),
      callTool('call_api', { path: '/widgets', status: 201 }),
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('finish', { summary: 'Done.', claims: [{ target: 'a', effect: 'created' }] }),
    ]);
    const result = await runAgent(agent, 'post a widget and store a', { ledger, model });
    expect(result).toMatchObject({ status: 'success', unmet: [] });
    expect(result.summary).toMatch(/^Done\. Verified 1 item\./);
  });

  it('a refusal before execution (invalid input) changed nothing and does not count as a failure', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 42 }),
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('finish', { summary: 'Stored a.', claims: [{ target: 'a' }] }),
    ]);
    const result = await runAgent(agent, 'store a', { ledger, model });
    expect(result.status).toBe('success');
    expect(toolCalls(ledger.entries(result.runId))[0]).toMatchObject({ outcome: 'rejected' });
  });

  it('claiming the same item twice counts it once', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const model = scriptedModel([
      callTool('put_item', { id: 'a', value: '1' }),
      callTool('finish', { summary: 'Stored two.', claims: [{ target: 'a' }, { target: 'a' }] }),
    ]);
    const result = await runAgent(agent, 'store two items', { ledger, model });
    expect(result.verified).toHaveLength(1);
    expect(result.duplicates).toHaveLength(1);
    expect(result.summary).toContain('1 duplicate claim counted once');
  });
});

describe('a run always ends', () => {
  const hanging = defineTool({
    name: 'hang',
    description: 'Never finishes and ignores its abort signal.',
    inputSchema: z.object({}),
    annotations: {},
    timeoutMs: 50,
    execute: () => new Promise<{ result: unknown }>(() => undefined),
  });

  it('a tool that ignores its abort signal is abandoned at its deadline with a timeout entry', async () => {
    const ledger = tempLedger();
    const agent = defineAgent({ name: 'hangs', instructions: 'Call hang.', tools: [hanging] });
    const model = scriptedModel([callTool('hang', {}), say('It hung.'), say('Still nothing.')]);
    const result = await runAgent(agent, 'call hang', { ledger, model });
    const entries = ledger.entries(result.runId);
    expect(toolCalls(entries)[0]).toMatchObject({
      outcome: 'error',
      data: { error: { code: 'TIMEOUT', message: expect.stringContaining('did not finish within 50 ms') } },
    });
    expect(ends(entries)).toHaveLength(1);
    expect(result.endingReason).toBe('tool_failure');
  });

  it('a deterministic plan with a hanging step still ends once, and its summary does not speak of a model', async () => {
    const ledger = tempLedger();
    const agent = defineAgent({ name: 'hangs', instructions: 'Call hang.', tools: [hanging] });
    const result = await runPlan(
      agent,
      'call hang',
      async (call) => {
        const record = await call('hang', {});
        return { stop: `hang failed: ${record.error?.code}`, failed: true };
      },
      { ledger },
    );
    expect(ends(ledger.entries(result.runId))).toHaveLength(1);
    expect(result.summary).toMatch(
      /^Not done\. Run ended: tool_failure — a step of the deterministic plan failed \(hang failed: TIMEOUT\)/,
    );
    expect(result.summary).toContain('No model ran');
    expect(result.summary).not.toMatch(/the model/i);
  });

  it('a tool whose target() throws, or whose result holds a BigInt or a cycle, still gets its tool_call entry', async () => {
    const ledger = tempLedger();
    const broken = defineTool({
      name: 'broken_target',
      description: 'Its target function throws.',
      inputSchema: z.object({}),
      annotations: { readOnly: true },
      target: () => {
        throw new Error('no target');
      },
      execute: async () => ({ result: { ok: true } }),
    });
    const odd = defineTool({
      name: 'odd_result',
      description: 'Returns a BigInt and a cycle.',
      inputSchema: z.object({}),
      annotations: { readOnly: true },
      execute: async () => {
        const cycle: Record<string, unknown> = { big: 12345678901234567890n };
        cycle.self = cycle;
        return { result: cycle };
      },
    });
    const agent = defineAgent({ name: 'odd', instructions: 'Call the tools.', tools: [broken, odd] });
    const model = scriptedModel([
      callTools([
        { toolName: 'broken_target', input: {} },
        { toolName: 'odd_result', input: {} },
      ]),
      callTool('stop', { reason: 'done looking' }),
    ]);
    const result = await runAgent(agent, 'call both', { ledger, model });
    const calls = toolCalls(ledger.entries(result.runId));
    expect(calls.find((entry) => entry.name === 'broken_target')).toMatchObject({
      outcome: 'error',
      data: { error: { code: 'TOOL_DEFINITION_ERROR' } },
    });
    expect(calls.find((entry) => entry.name === 'odd_result')).toMatchObject({
      outcome: 'ok',
      data: { result: { big: '12345678901234567890', self: '[cycle]' } },
    });
    expect(ends(ledger.entries(result.runId))).toHaveLength(1);
  });

  it('malformed tool-call JSON from a provider is INVALID_INPUT, not UNKNOWN_TOOL', async () => {
    const ledger = tempLedger();
    const { tools } = itemTools();
    const agent = defineAgent({ name: 'items', instructions: 'Store items with put_item.', tools });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'put_item', input: {}, rawInput: '{"id": "a", "value": ' }] },
      callTool('stop', { reason: 'gave up' }),
    ]);
    const result = await runAgent(agent, 'store a', { ledger, model });
    expect(toolCalls(ledger.entries(result.runId))[0]).toMatchObject({
      name: 'put_item',
      outcome: 'rejected',
      data: { error: { code: 'INVALID_INPUT' } },
    });
  });
});
