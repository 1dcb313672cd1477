import { z } from 'zod';
import { type AgentOptions, defineAgent } from '../../../src/core/agent/agent-definition.js';
import { ToolRejectedError } from '../../../src/core/errors.js';
import { defineTool } from '../../../src/core/tool.js';

/** A small in-memory item store whose writes return evidence, for driving the loop. */
export function itemTools(items = new Map<string, string>()) {
  const putItem = defineTool({
    name: 'put_item',
    description: 'Store an item.',
    inputSchema: z.object({ id: z.string(), value: z.string() }),
    annotations: { idempotent: true },
    target: (input) => `items/${input.id}`,
    execute: async ({ id, value }) => {
      const existed = items.has(id);
      items.set(id, value);
      return {
        result: { ok: true, id },
        evidence: {
          via: `put_item ${id}`,
          effects: [
            {
              kind: existed ? 'updated' : 'created',
              space: 'item',
              key: `items/${id}`,
              id,
              type: 'item',
              observed: { content: value },
            },
          ],
        },
      };
    },
  });
  const getItem = defineTool({
    name: 'get_item',
    description: 'Read an item.',
    inputSchema: z.object({ id: z.string() }),
    annotations: { readOnly: true },
    target: (input) => `items/${input.id}`,
    execute: async ({ id }) => {
      const value = items.get(id);
      if (value === undefined) throw new ToolRejectedError('ITEM_NOT_FOUND', `No item "${id}".`);
      return {
        result: { ok: true, id, value },
        evidence: {
          via: `get_item ${id}`,
          effects: [
            {
              kind: 'read',
              space: 'item',
              key: `items/${id}`,
              id,
              type: 'item',
              observed: { content: value },
            },
          ],
        },
      };
    },
  });
  const callApi = defineTool({
    name: 'call_api',
    description: 'Call the API; it answers with an HTTP-like status.',
    inputSchema: z.object({ path: z.string(), status: z.number() }),
    annotations: {},
    target: (input) => `POST ${input.path}`,
    execute: async ({ status }) => ({ result: { status } }),
  });
  const slow = defineTool({
    name: 'slow',
    description: 'Waits until aborted.',
    inputSchema: z.object({}),
    annotations: { readOnly: true },
    execute: async (_input, context) =>
      new Promise<{ result: unknown }>((resolve) => {
        context.signal?.addEventListener('abort', () => resolve({ result: { ok: false, error: 'aborted' } }));
      }),
  });
  return { items, tools: [putItem, getItem, callApi, slow] };
}

export function itemAgent(overrides: Partial<AgentOptions> = {}) {
  const { items, tools } = itemTools();
  const agent = defineAgent({
    name: 'items',
    instructions: 'Store items with put_item, read them with get_item, then call finish.',
    tools,
    ...overrides,
  });
  return { agent, items };
}

// A user's tool declares its own error codes, as packs do.
declare module '../../../src/core/errors.js' {
  interface TallyErrorCodes {
    ITEM_NOT_FOUND: true;
  }
}
