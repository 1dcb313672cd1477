import type { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../../src/core/agent/agent-definition.js';
import { runAgent } from '../../src/core/agent/run-agent.js';
import type { RunEvent } from '../../src/core/agent/run-observer.js';
import type { LedgerEntry } from '../../src/core/ledger/entry.js';
import { resolveModel } from '../../src/core/models/resolve-model.js';
import { defineTool } from '../../src/core/tool.js';
import { type AimockServer, startAimock } from '../../src/testing/aimock.js';
import { tempLedger } from '../helpers.js';

const ANSWER = 'I stored the greeting under its key, read it back, and its value is hello as you asked.';

// A real streamed OpenAI response (server-sent events cut into small chunks, a pause between
// them) through the real @ai-sdk/openai provider: the text must reach the observer piece by
// piece while the response is still arriving.
describe('model text streamed from @ai-sdk/openai against aimock', () => {
  let server: AimockServer<LLMock>;

  beforeAll(async () => {
    server = await startAimock<LLMock>((mock) => {
      mock.onToolResult('call_store_1', { content: ANSWER }, { chunkSize: 6, latency: 15 });
      mock.onMessage(
        'store the greeting',
        {
          content: 'Storing it now.',
          toolCalls: [
            {
              id: 'call_store_1',
              name: 'kv_put',
              arguments: JSON.stringify({ key: 'greeting', value: 'hello' }),
            },
          ],
        },
        { chunkSize: 4, latency: 10 },
      );
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  function agent() {
    const store = new Map<string, string>();
    const kvPut = defineTool({
      name: 'kv_put',
      description: 'Store a value under a key.',
      inputSchema: z.object({ key: z.string(), value: z.string() }),
      annotations: { idempotent: true },
      target: (input) => input.key,
      execute: async ({ key, value }) => {
        store.set(key, value);
        return { result: { ok: true } };
      },
    });
    return defineAgent({
      name: 'kv',
      instructions: 'Store values with kv_put, then say what you did.',
      tools: [kvPut],
      requireFinish: false,
    });
  }

  async function run(onEvent?: (event: RunEvent) => void) {
    const ledger = tempLedger();
    const model = await resolveModel('openai:gpt-4.1-mini', server.env);
    const result = await runAgent(agent(), 'Please store the greeting', {
      ledger,
      model,
      maxRetries: 0,
      ...(onEvent ? { onEvent } : {}),
    });
    return { result, entries: ledger.entries(result.runId) };
  }

  it('deltas arrive in several pieces before their step ends, and join to the step text', async () => {
    const timeline: { event: RunEvent; at: number }[] = [];
    const { result, entries } = await run((event) => timeline.push({ event, at: performance.now() }));
    expect(result.endingReason).toBe('finished');
    expect(result.text).toBe(ANSWER);

    // One group of deltas per model call, each before that call's model_call entry.
    const groups: string[][] = [[]];
    for (const { event } of timeline) {
      if (event.type === 'model-text-delta') groups.at(-1)?.push(event.delta);
      if (event.type === 'entry' && event.entry.kind === 'model_call') groups.push([]);
    }
    expect(groups.pop()).toEqual([]); // nothing after the last model call
    expect(groups.map((pieces) => pieces.join(''))).toEqual(['Storing it now.', ANSWER]);
    expect(groups[1]?.length).toBeGreaterThan(5); // streamed, not told at once

    // The first piece of the answer came well before its response ended.
    const answerDeltas = timeline
      .filter(({ event }) => event.type === 'model-text-delta')
      .slice(groups[0]?.length);
    const answerEnd = timeline.filter(
      ({ event }) => event.type === 'entry' && event.entry.kind === 'model_call',
    )[1];
    expect((answerEnd?.at ?? 0) - (answerDeltas[0]?.at ?? 0)).toBeGreaterThan(50);

    const wholes = timeline.flatMap(({ event }) => (event.type === 'model-text' ? [event.text] : []));
    expect(wholes).toEqual(['Storing it now.', ANSWER]);
    expect(entries.map((entry) => entry.kind)).toEqual(['model_call', 'tool_call', 'model_call', 'end']);
  });

  it('the ledger is the same whether the response was streamed (observed) or not', async () => {
    const strip = (entries: LedgerEntry[]) =>
      entries.map(({ kind, name, outcome, data }) => {
        const { durationMs: _duration, ...rest } = data;
        return { kind, name, outcome, data: rest };
      });
    const streamed = await run(() => undefined);
    const generated = await run();
    expect(strip(streamed.entries)).toEqual(strip(generated.entries));
    expect({ ...streamed.result, runId: '' }).toEqual({ ...generated.result, runId: '' });
    const tokens = streamed.entries.find((entry) => entry.kind === 'model_call')?.data;
    expect(tokens).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
  });
});
