import { z } from 'zod';
import { builtOnce } from '../../../core/built-once.js';
import { defineTool, type ToolOutcome } from '../../../core/tool.js';
import type { ApiSpecIndex } from '../openapi/api-spec-index.js';
import { describeOperation } from '../openapi/describe-operation.js';
import { type HttpToolContext, previewBody } from './http-tool-context.js';

// Built on first use, once per process: a deterministic `tally fish` never asks for a spec (issue 22).
const endpointSpecInput = builtOnce(buildEndpointSpecInput);

function buildEndpointSpecInput() {
  return z.object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: z.string().min(1),
  });
}

/** `spec`: the OpenAPI documents' endpoint model, when the run has one (achieve mode, or both). */
export function endpointSpecTool(context: HttpToolContext & { spec?: ApiSpecIndex }) {
  return defineTool({
    name: 'get_endpoint_spec',
    description:
      'Show how to call an endpoint, for this method only: the OpenAPI operation (parameters, request schema, a sample body) and/or the best captured example for this method and path (a {id} pattern or a concrete path) — its concrete path, request body, status and response. Call it before the first use of an endpoint.',
    get inputSchema() {
      return endpointSpecInput();
    },
    annotations: { readOnly: true, idempotent: true },
    target: (input) => `${input.method} ${context.index.normalize(input.path)}`,
    execute: async (input): Promise<ToolOutcome<Record<string, unknown>>> => {
      const example = context.index.example(input.method, input.path, context.scope);
      // Method-aware: the POST operation at a path, never the GET declared there.
      const operation = context.spec?.operation(input.method, input.path);
      if (operation) {
        const described = describeOperation(operation);
        return {
          result: example
            ? {
                ...described,
                capturedExample: { path: example.path, requestBody: example.requestBody ?? null },
              }
            : described,
          evidence: { via: `openapi ${operation.method} ${operation.path}`, spec: operation.source },
        };
      }
      if (!example) {
        const sameMethod = (line: string) => line.startsWith(`${input.method} `);
        // Name the sources this run has: the documents' operations, captured traffic, or both.
        const documented = context.spec?.endpointLines().filter(sameMethod);
        const hasCaptures = !documented || context.index.captures.length > 0;
        const captured = context.index.endpointLines(context.scope).filter(sameMethod);
        const sought = !documented
          ? `captured ${input.method} request`
          : `${input.method} operation${hasCaptures ? ' or captured request' : ''}`;
        const lists = [
          ...(documented
            ? [`${input.method} operations in the OpenAPI documents: ${documented.join(', ') || 'none'}`]
            : []),
          ...(hasCaptures
            ? [`Captured ${input.method} endpoints in scope: ${captured.join(', ') || 'none'}`]
            : []),
        ];
        return {
          result: {
            found: false,
            message: `No ${sought} matches ${input.path}. ${lists.join('. ')}.`,
          },
        };
      }
      return {
        result: {
          found: true,
          method: example.method,
          pattern: context.index.normalize(example.path),
          path: example.path,
          query: example.query,
          requestBody: example.requestBody ?? example.requestBodyText ?? null,
          status: example.status,
          responseBody: previewBody(example.responseBody ?? null),
          capturedAt: example.timestamp ?? 'unknown (stale capture)',
        },
        evidence: { via: `capture ${example.id}`, capture: example.id },
      };
    },
  });
}
