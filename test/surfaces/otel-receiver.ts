import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  events?: { name: string }[];
  resource: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

function decodeValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function attributesOf(list: { key: string; value: OtlpValue }[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map((attribute) => [attribute.key, decodeValue(attribute.value)]));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 (POST /v1/traces, JSON as the exporter sends it),
 * closed after the test. `status` answers every export with that code (400: a refusing collector).
 */
export async function startOtlpReceiver(options: { status?: number } = {}) {
  const spans: ReceivedSpan[] = [];
  const requests: { path: string; contentType: string }[] = [];
  const server = createServer(async (request, response) => {
    const text = await bodyOf(request);
    requests.push({ path: request.url ?? '', contentType: String(request.headers['content-type']) });
    if (request.method !== 'POST' || request.url !== '/v1/traces' || options.status) {
      response.writeHead(options.status ?? 404).end();
      return;
    }
    const body = JSON.parse(text) as {
      resourceSpans: {
        resource?: { attributes?: { key: string; value: OtlpValue }[] };
        scopeSpans: {
          spans: (Omit<ReceivedSpan, 'attributes' | 'resource'> & {
            attributes?: { key: string; value: OtlpValue }[];
          })[];
        }[];
      }[];
    };
    for (const resourceSpans of body.resourceSpans) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans)
        for (const span of scope.spans)
          spans.push({
            ...span,
            parentSpanId: span.parentSpanId || undefined,
            attributes: attributesOf(span.attributes),
            resource,
          });
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, requests };
}
