import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { createRequire } from 'node:module';
import { TallyError } from '../../../core/errors.js';

/**
 * Every other input has a cap, so responses do too: at most this many bytes on the wire
 * (an endless body is cut, the connection dropped) and at most this many once a content
 * coding is undone (a gzip bomb stops at the limit, it is never inflated whole).
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
export const MAX_DECODED_BYTES = 32 * 1024 * 1024;

export interface ResponseLimits {
  /** Bytes on the wire (before decompression). */
  maxResponseBytes?: number;
  /** Bytes after gzip/deflate/br are undone. */
  maxDecodedBytes?: number;
}

export function tooLarge(what: string, limit: number): TallyError {
  return new TallyError(
    'RESPONSE_TOO_LARGE',
    `the response ${what} more than ${limit} bytes (Tally's limit); it was not read`,
    { limit },
  );
}

/** One request as the API client sends it: no redirects followed, a string body or none. */
export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Caps on the response; the defaults are MAX_RESPONSE_BYTES and MAX_DECODED_BYTES. */
  limits?: ResponseLimits;
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
 * Keep-alive connections, closed after a second idle (sooner when the server's Keep-Alive
 * header says so): a burst of creates reuses one connection, while a request after a pause
 * (a model thinking) never lands on a socket the server is closing — gunicorn waits 2 s,
 * Node's own servers 5 s — which would fail a create that never reached it.
 */
export const IDLE_MS = 1000;
const agents: { http?: Http.Agent; https?: Https.Agent } = {};

// node:https brings node:tls (~2.5 ms of every start, issue 22): loaded on the first https URL,
// which a data run against a local http app never sends. node:http likewise, on the first
// request through it: plain http goes through the lean client (lean-http-transport.ts).
const nodeRequire = createRequire(import.meta.url);

function httpClient(): { request: typeof Http.request; agent: Http.Agent } {
  const http = nodeRequire('node:http') as typeof Http;
  agents.http ??= new http.Agent({ keepAlive: true, timeout: IDLE_MS });
  return { request: http.request, agent: agents.http };
}

function httpsClient(): { request: typeof Https.request; agent: Https.Agent } {
  const https = nodeRequire('node:https') as typeof Https;
  agents.https ??= new https.Agent({ keepAlive: true, timeout: IDLE_MS });
  return { request: https.request, agent: agents.https };
}

/** Methods that change nothing more when sent twice: retried once on a connection the server had closed. */
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * node:http(s) on keep-alive agents: a third of `fetch`'s CPU per request on Node 20
 * (undici's WHATWG streams), which is most of what a data run spends besides waiting.
 * Like `fetch` with `redirect: 'manual'` it never follows a redirect; like `response.text()`
 * it decodes the body as UTF-8 (a BOM dropped) after undoing gzip, deflate or br.
 */
export const nodeHttpTransport: Transport = (url, request) => sendOnce(url, request, true);

/** What node:http rejects with when its `signal` aborts a request (fetch: a DOMException of that name). */
export function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

function sendOnce(url: URL, request: TransportRequest, mayRetry: boolean): Promise<TransportResponse> {
  const { signal } = request;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((settleOk, settleError) => {
    // The abort is watched here rather than through node:http's `signal` option, which also
    // follows the request's end with stream listeners: about a quarter of a request's CPU on a
    // keep-alive loop (issue 22). The same effect: the request destroyed with an AbortError.
    let onAbort: (() => void) | undefined;
    const unwatch = () => {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    };
    const resolve = (response: TransportResponse) => {
      unwatch();
      settleOk(response);
    };
    const reject = (error: unknown) => {
      unwatch();
      settleError(error);
    };
    const { request: send, agent } = url.protocol === 'https:' ? httpsClient() : httpClient();
    const method = request.method.toUpperCase();
    // A name, as fetch sends `node`: some servers and proxies refuse a request without one.
    const headers: Record<string, string> = { 'user-agent': 'tally-harness', ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    let answered = false;
    const outgoing = send(url, { method, headers, agent }, (response) => {
      answered = true;
      readBody(response, request.limits).then(
        (text) =>
          resolve({
            status: response.statusCode ?? 0,
            header: (name) => headerValue(response, name),
            setCookies: () => response.headers['set-cookie'] ?? [],
            text,
          }),
        reject,
      );
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed as this request went out: nothing was
      // answered, and for an idempotent method sending it again on a new one is safe.
      const stale =
        outgoing.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      if (stale && mayRetry && IDEMPOTENT.has(method)) sendOnce(url, request, false).then(resolve, reject);
      else reject(error);
    });
    if (signal) {
      onAbort = () => outgoing.destroy(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    }
    outgoing.end(request.body);
  });
}

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
    const text = await readFetchBody(response, request.limits);
    return {
      status: response.status,
      header: (name) => response.headers.get(name) ?? undefined,
      setCookies: () => response.headers.getSetCookie(),
      text,
    };
  };
}

function headerValue(response: Http.IncomingMessage, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body through a fetch Response, counted as it streams (fetch has already undone any coding). */
async function readFetchBody(response: Response, limits: ResponseLimits = {}): Promise<string> {
  const limit = Math.min(
    limits.maxDecodedBytes ?? MAX_DECODED_BYTES,
    limits.maxResponseBytes ?? MAX_DECODED_BYTES,
  );
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge('body holds', limit);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function readBody(response: Http.IncomingMessage, limits: ResponseLimits = {}): Promise<string> {
  const limit = limits.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return new Promise((resolve, reject) => {
    const declared = Number(headerValue(response, 'content-length'));
    if (Number.isFinite(declared) && declared > limit) {
      response.destroy();
      reject(tooLarge('declares', limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let stopped = false;
    response.on('data', (chunk: Buffer) => {
      if (stopped) return;
      size += chunk.length;
      if (size > limit) {
        // An endless body: stop reading and drop the connection (never handed back to the pool).
        stopped = true;
        response.destroy();
        reject(tooLarge('body holds', limit));
        return;
      }
      chunks.push(chunk);
    });
    response.on('error', (error) => {
      if (!stopped) reject(error);
    });
    response.on('end', () => {
      if (!stopped)
        decodeBody(Buffer.concat(chunks), headerValue(response, 'content-encoding'), limits).then(
          resolve,
          reject,
        );
    });
  });
}

/** A body as text: its content coding undone (never past the decoded cap), UTF-8, a BOM dropped. */
export async function decodeBody(
  raw: Buffer,
  contentEncoding: string | undefined,
  limits: ResponseLimits = {},
): Promise<string> {
  let bytes = raw;
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (bytes.length > 0 && encoding && encoding !== 'identity')
    bytes = await decode(bytes, encoding, limits.maxDecodedBytes ?? MAX_DECODED_BYTES);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Undoes a content coding (loaded only when a server compresses unasked), never past `limit` bytes. */
async function decode(bytes: Buffer, encoding: string, limit: number): Promise<Buffer> {
  const zlib = await import('node:zlib');
  const { promisify } = await import('node:util');
  const options = { maxOutputLength: limit };
  const capped = (work: Promise<Buffer>): Promise<Buffer> =>
    work.catch((error: NodeJS.ErrnoException) => {
      // zlib stops at maxOutputLength with ERR_BUFFER_TOO_LARGE (a RangeError).
      if (error?.code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
        throw tooLarge(`inflates (${encoding}) to`, limit);
      throw error;
    });
  if (encoding === 'gzip' || encoding === 'x-gzip') return capped(promisify(zlib.gunzip)(bytes, options));
  if (encoding === 'deflate')
    return capped(
      promisify(zlib.inflate)(bytes, options).catch((error: NodeJS.ErrnoException) => {
        if (error?.code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) throw error;
        return promisify(zlib.inflateRaw)(bytes, options);
      }),
    );
  if (encoding === 'br') return capped(promisify(zlib.brotliDecompress)(bytes, options));
  throw new Error(`the response is ${encoding}-encoded, which Tally cannot decode`);
}
