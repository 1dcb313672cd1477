import { z } from 'zod';
import { defineTool } from '../../../core/tool.js';
import { serverMessage } from '../client/server-message.js';
import { resourceOf } from '../endpoints/path-normalizer.js';
import { httpEffects } from './http-effects.js';
import { type HttpToolContext, previewBody } from './http-tool-context.js';
import { requestIntent } from './request-intent.js';

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
      "Send one HTTP request to the app API with the run's credentials (the live session, or the configured headers). Returns the HTTP status, the error category and the server message, the ids the response returned, and the body. Use get_endpoint_spec before the first use of an endpoint.",
    inputSchema: requestInput,
    annotations: { destructive: true, openWorld: true },
    target: (input) => `${input.method} ${context.index.normalize(input.path)}`,
    intent: (input) => requestIntent(input.method, input.path, input.body),
    timeoutMs: 30_000,
    execute: async (input, toolContext) => {
      const response = await context.client.send(input, toolContext.signal);
      const pathOnly = response.path.split('?')[0] ?? response.path;
      const pattern = context.index.normalize(pathOnly);
      const message = response.ok ? undefined : serverMessage(response.body);
      return {
        result: {
          status: response.status,
          ok: response.ok,
          ...(response.category ? { category: response.category } : {}),
          ...(message ? { message } : {}),
          ids: response.ids,
          ...(response.location ? { location: response.location } : {}),
          body: previewBody(response.body),
        },
        evidence: {
          via: `${response.method} ${pathOnly} → ${response.status}`,
          effects: httpEffects(response, input.body, (path) => context.index.normalize(path)),
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
