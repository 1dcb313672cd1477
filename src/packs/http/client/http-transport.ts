import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** One request as the API client sends it: no redirects followed, a string body or none. */
export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** What the API client reads of a response. */
export interface TransportResponse {
  status: number;
  /** One header, repeated values joined with ", " (as fetch's Headers.get). */
  header(name: string): string | undefined;
  /** Every `Set-Cookie` line, never joined (a cookie's Expires holds a comma). */
  setCookies(): string[];
  text: string;
}

export type Transport = (url: URL, request: TransportRequest) => Promise<TransportResponse>;

/**
 * node:http(s) on the default keep-alive agents: a third of `fetch`'s CPU per request on
 * Node 20 (undici's WHATWG streams), which is most of what a data run spends besides waiting.
 * Like `fetch` with `redirect: 'manual'` it never follows a redirect; like `response.text()`
 * it decodes the body as UTF-8 (a BOM dropped) after undoing gzip, deflate or br.
 */
export const nodeHttpTransport: Transport = (url, request) =>
  new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    const outgoing = send(
      url,
      {
        method: request.method.toUpperCase(),
        headers,
        ...(request.signal ? { signal: request.signal } : {}),
      },
      (response) => {
        readBody(response).then(
          (text) =>
            resolve({
              status: response.statusCode ?? 0,
              header: (name) => headerValue(response, name),
              setCookies: () => response.headers['set-cookie'] ?? [],
              text,
            }),
          reject,
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });

/** Any fetch (a test's fault injector, a user's instrumented fetch) as a transport. */
export function fetchTransport(fetchImpl: typeof fetch): Transport {
  return async (url, request) => {
    const response = await fetchImpl(url, {
      method: request.method,
      headers: request.headers,
      redirect: 'manual',
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      header: (name) => response.headers.get(name) ?? undefined,
      setCookies: () => response.headers.getSetCookie(),
      text,
    };
  };
}

function headerValue(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', reject);
    response.on('end', () => decodeBody(response, Buffer.concat(chunks)).then(resolve, reject));
  });
}

async function decodeBody(response: IncomingMessage, raw: Buffer): Promise<string> {
  let bytes = raw;
  const encoding = (headerValue(response, 'content-encoding') ?? '').trim().toLowerCase();
  if (bytes.length > 0 && encoding && encoding !== 'identity') bytes = await decode(bytes, encoding);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Undoes a content coding (loaded only when a server compresses unasked). */
async function decode(bytes: Buffer, encoding: string): Promise<Buffer> {
  const zlib = await import('node:zlib');
  const { promisify } = await import('node:util');
  if (encoding === 'gzip' || encoding === 'x-gzip') return promisify(zlib.gunzip)(bytes);
  if (encoding === 'deflate')
    return promisify(zlib.inflate)(bytes).catch(() => promisify(zlib.inflateRaw)(bytes));
  if (encoding === 'br') return promisify(zlib.brotliDecompress)(bytes);
  throw new Error(`the response is ${encoding}-encoded, which Tally cannot decode`);
}
