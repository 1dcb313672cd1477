import { createHash } from 'node:crypto';
import type { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../../src/core/agent/agent-definition.js';
import { runAgent } from '../../src/core/agent/run-agent.js';
import { resolveModel } from '../../src/core/models/resolve-model.js';
import { defineTool } from '../../src/core/tool.js';
import { type AimockServer, startAimock } from '../../src/testing/aimock.js';
import { tempLedger } from '../helpers.js';

// A real OpenAI wire-format server (aimock) and the real @ai-sdk/openai provider: the
// harness must survive actual request/response serialization, not just a test double.
describe('agent loop over @ai-sdk/openai against aimock', () => {
  let server: AimockServer<LLMock>;

  beforeAll(async () => {
    server = await startAimock<LLMock>((mock) => {
      // First matching fixture wins: tool-result fixtures go before message fixtures.
      mock.onToolResult('call_finish_1', { content: 'Stored and verified.' });
      mock.onToolResult('call_store_1', {
        toolCalls: [
          {
            id: 'call_finish_1',
            name: 'finish',
            arguments: JSON.stringify({ summary: 'Stored the greeting.', claims: [{ target: 'greeting' }] }),
          },
        ],
      });
      mock.onMessage('store the greeting', {
        toolCalls: [
          {
            id: 'call_store_1',
            name: 'kv_put',
            arguments: JSON.stringify({ key: 'greeting', value: 'hello' }),
          },
        ],
      });
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('runs a two-step tool loop and verifies the finish against the ledger', async () => {
    const store = new Map<string, string>();
    const kvPut = defineTool({
      name: 'kv_put',
      description: 'Store a value under a key.',
      inputSchema: z.object({ key: z.string(), value: z.string() }),
      annotations: { idempotent: true },
      target: (input) => input.key,
      execute: async ({ key, value }) => {
        const existed = store.has(key);
        store.set(key, value);
        const sha256 = createHash('sha256')
          .update(store.get(key) ?? '')
          .digest('hex');
        return {
          result: { ok: true },
          evidence: {
            via: `kv_put ${key} sha256=${sha256.slice(0, 8)}`,
            effects: [
              { kind: existed ? 'updated' : 'created', space: 'kv', key, id: key, observed: { sha256 } },
            ],
          },
        };
      },
    });
    const agent = defineAgent({
      name: 'kv',
      instructions: 'Store values with kv_put, then call finish.',
      tools: [kvPut],
    });
    const ledger = tempLedger();
    const model = await resolveModel('openai:gpt-4.1-mini', server.env);

    const result = await runAgent(agent, 'Please store the greeting', { ledger, model, maxRetries: 0 });

    expect(result.endingReason).toBe('finished');
    expect(result.status).toBe('success');
    expect(result.verified).toEqual([
      expect.objectContaining({ target: 'greeting', via: expect.stringMatching(/^kv_put greeting sha256=/) }),
    ]);
    expect(store.get('greeting')).toBe('hello');
    const entries = ledger.entries(result.runId);
    expect(entries.filter((entry) => entry.kind === 'model_call')).toHaveLength(2);
    expect(
      entries.filter((entry) => entry.kind === 'tool_call').map((entry) => [entry.name, entry.outcome]),
    ).toEqual([
      ['kv_put', 'ok'],
      ['finish', 'ok'],
    ]);
    expect(entries.at(-1)).toMatchObject({ kind: 'end', outcome: 'finished' });
  });
});
