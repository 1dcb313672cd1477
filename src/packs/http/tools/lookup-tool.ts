import { z } from 'zod';
import { defineTool } from '../../../core/tool.js';
import { type HttpToolContext, previewBody } from './http-tool-context.js';

export function lookupTool(context: HttpToolContext) {
  return defineTool({
    name: 'lookup',
    description:
      'GET a path on the app API to see what already exists (read-only). Ids seen here were not created by you.',
    inputSchema: z.object({
      path: z.string().min(1).describe('Concrete path, e.g. /api/alpha-shop/suites'),
      query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    }),
    annotations: { readOnly: true, idempotent: true, openWorld: true },
    target: (input) => `GET ${context.index.normalize(input.path)}`,
    execute: async (input) => {
      const response = await context.client.send({
        method: 'GET',
        path: input.path,
        ...(input.query ? { query: input.query } : {}),
      });
      return {
        result: {
          status: response.status,
          ok: response.ok,
          ...(response.category ? { category: response.category } : {}),
          body: previewBody(response.body),
        },
        evidence: {
          via: `GET ${response.path} → ${response.status}`,
          method: 'GET',
          path: response.path,
          status: response.status,
        },
      };
    },
  });
}
