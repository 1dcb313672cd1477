import { z } from 'zod';
import { defineTool } from '../../../core/tool.js';
import { serverMessage } from '../client/server-message.js';
import { resourceOf } from '../endpoints/path-normalizer.js';
import { refuseDeepBody } from './body-depth.js';
import { bodyToSend, exchange, type HttpToolContext, previewBody } from './http-tool-context.js';
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
      "Send one HTTP request to the app API with the run's credentials (the live session, or the configured headers). Returns the HTTP status, the error category and the server message, the ids the response returned, and the body. A create's title gets this run's marker when it lacks it. Use get_endpoint_spec before the first use of an endpoint.",
    inputSchema: requestInput,
    annotations: { destructive: true, openWorld: true },
    target: (input) => `${input.method} ${context.index.normalize(input.path)}`,
    // The intent names the body as sent (marker included), as a lost create's `recovers` does.
    intent: (input) => requestIntent(input.method, input.path, bodyToSend(context, input).body),
    timeoutMs: 30_000,
    execute: async (input, toolContext) => {
      refuseDeepBody(input.body);
      const { response, effects, stamped, found } = await exchange(context, input, toolContext);
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
          ...(stamped ? { marked: { [stamped.field]: stamped.value } } : {}),
          ...(found ? { found } : {}),
          body: previewBody(response.body),
          ...(response.renewedSession ? { renewedSession: true } : {}),
        },
        evidence: {
          via: `${response.method} ${pathOnly} → ${response.status}`,
          effects,
          method: response.method,
          path: response.path,
          pattern,
          status: response.status,
          ids: response.ids,
          ...(resourceOf(pattern) ? { resource: resourceOf(pattern) } : {}),
          ...(response.category ? { category: response.category } : {}),
          ...(stamped ? { marked: stamped.field } : {}),
          durationMs: response.durationMs,
          // The first answer was 401: the run logged in again and resent the request.
          ...(response.renewedSession ? { renewedSession: true } : {}),
        },
      };
    },
  });
}
