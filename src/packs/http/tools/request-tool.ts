import { z } from 'zod';
import { defineTool } from '../../../core/tool.js';
import { resourceOf } from '../endpoints/path-normalizer.js';
import { type HttpToolContext, previewBody } from './http-tool-context.js';

const requestInput = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z
    .string()
    .min(1)
    .describe('Concrete path on the API origin, e.g. /api/alpha-shop/suites (not a {id} pattern).'),
  body: z.unknown().optional().describe('JSON body for POST/PUT/PATCH.'),
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

export function requestTool(context: HttpToolContext) {
  return defineTool({
    name: 'request',
    description:
      'Send one HTTP request to the app API as the logged-in user. Returns the HTTP status, the error category, the ids the response returned, and the body. Use get_endpoint_spec before the first use of an endpoint.',
    inputSchema: requestInput,
    annotations: { destructive: true, openWorld: true },
    target: (input) => `${input.method} ${context.index.normalize(input.path)}`,
    execute: async (input) => {
      const response = await context.client.send(input);
      const pathOnly = response.path.split('?')[0] ?? response.path;
      const pattern = context.index.normalize(pathOnly);
      // A successful DELETE's evidence target is the entity it removed.
      const targets =
        response.method === 'DELETE' && response.ok
          ? [pathOnly.split('/').filter(Boolean).at(-1) as string]
          : response.ids;
      return {
        result: {
          status: response.status,
          ok: response.ok,
          ...(response.category ? { category: response.category } : {}),
          ids: response.ids,
          ...(response.location ? { location: response.location } : {}),
          body: previewBody(response.body),
        },
        evidence: {
          via: `${response.method} ${pathOnly} → ${response.status}`,
          targets,
          method: response.method,
          path: response.path,
          pattern,
          status: response.status,
          ids: response.ids,
          ...(resourceOf(pattern) ? { resource: resourceOf(pattern) } : {}),
          ...(response.category ? { category: response.category } : {}),
          durationMs: response.durationMs,
        },
      };
    },
  });
}
