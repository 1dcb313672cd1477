import { z } from 'zod';
import { builtOnce } from '../../../core/built-once.js';
import { defineTool } from '../../../core/tool.js';
import { serverMessage } from '../client/server-message.js';
import { exchange, type HttpToolContext, previewBody } from './http-tool-context.js';

// Built on first use, once per process: a deterministic `tally fish` never looks a path up (issue 22).
const lookupInput = builtOnce(buildLookupInput);

function buildLookupInput() {
  return z.object({
    path: z.string().min(1).describe('Concrete path, e.g. /api/alpha-shop/suites'),
    query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  });
}

export function lookupTool(context: HttpToolContext) {
  return defineTool({
    name: 'lookup',
    description:
      "GET a path on the app API to see what already exists (read-only). Ids seen here were not created by you — except a create whose response was lost, which a lookup of its collection finds again by this run's marker.",
    get inputSchema() {
      return lookupInput();
    },
    annotations: { readOnly: true, idempotent: true, openWorld: true },
    target: (input) => `GET ${context.index.normalize(input.path)}`,
    timeoutMs: 30_000,
    execute: async (input, toolContext) => {
      const { response, effects, found } = await exchange(
        context,
        { method: 'GET', path: input.path, ...(input.query ? { query: input.query } : {}) },
        toolContext,
      );
      const message = response.ok ? undefined : serverMessage(response.body);
      const marked = response.marked ?? [];
      return {
        result: {
          status: response.status,
          ok: response.ok,
          ...(response.category ? { category: response.category } : {}),
          ...(message ? { message } : {}),
          ...(found ? { found } : {}),
          // Cleanup by marker: items the cleaned run made, found by the marker they carry.
          ...(marked.length > 0
            ? {
                marked: marked.map((item) => ({
                  path: item.path,
                  id: item.id,
                  field: item.field,
                  value: item.value,
                })),
              }
            : {}),
          body: previewBody(response.body),
        },
        evidence: {
          via: `GET ${response.path} → ${response.status}`,
          effects,
          method: 'GET',
          path: response.path,
          status: response.status,
        },
      };
    },
  });
}
