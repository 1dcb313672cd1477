import type { Socket } from 'node:net';
import {
  abortError,
  decodeBody,
  IDEMPOTENT,
  MAX_RESPONSE_BYTES,
  nodeHttpTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  tooLarge,
} from './http-transport.js';
import { releaseConnection, takeConnection } from './http1-connections.js';
import { requestHead } from './http1-request-head.js';
import { type ResponseHead, ResponseParser } from './http1-response-parser.js';

/**
 * Plain HTTP/1.1 over kept-alive sockets, without node:http's streams (issue 22): node:http's
 * client spends ~0.7 ms of CPU per request in a short run, about as much as the rest of a create
 * costs Tally; this client spends about a fifth of that. It sends the bytes node:http sent
 * (http1-request-head.ts), reads responses as strictly (http1-response-parser.ts), and keeps
 * every promise nodeHttpTransport made: no redirect followed, the body capped and decoded,
 * a stale kept-alive connection retried for an idempotent method only, an abort honoured at
 * any point. https goes through node:https as before. TALLY_HTTP_CLIENT=node turns it off.
 */
export const leanHttpTransport: Transport = (url, request) =>
  url.protocol === 'http:' ? sendOnce(url, request, true) : nodeHttpTransport(url, request);

/** The transport the API client uses unless given a fetch: the lean one, or node:http when asked. */
export function defaultTransport(): Transport {
  return process.env.TALLY_HTTP_CLIENT === 'node' ? nodeHttpTransport : leanHttpTransport;
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function sendOnce(url: URL, request: TransportRequest, mayRetry: boolean): Promise<TransportResponse> {
  const { signal } = request;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const method = request.method.toUpperCase();
  const headers: Record<string, string> = { 'user-agent': 'tally-harness', ...request.headers };
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  if (body) headers['content-length'] = String(body.length);
  let head: string;
  try {
    head = requestHead(method, url, headers, body !== undefined);
  } catch (error) {
    return Promise.reject(error);
  }
  const limit = request.limits?.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const host = hostOf(url);
  const port = Number(url.port || 80);
  const { socket, reused } = takeConnection(host, port);

  return new Promise<TransportResponse>((resolve, reject) => {
    let settled = false;
    let response: ResponseHead | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const detach = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      detach();
      socket.destroy();
      // A kept-alive connection the server closed as this request went out: nothing was
      // answered, and for an idempotent method sending it again on a new one is safe.
      const code = (error as NodeJS.ErrnoException)?.code;
      const stale = reused && !parser.answered && (code === 'ECONNRESET' || code === 'EPIPE');
      if (stale && mayRetry && IDEMPOTENT.has(method)) sendOnce(url, request, false).then(resolve, reject);
      else reject(error);
    };
    const parser = new ResponseParser(method, {
      head: (read) => {
        const declared = Number(read.headers.get('content-length'));
        if (Number.isFinite(declared) && declared > limit) throw tooLarge('declares', limit);
        response = read;
      },
      body: (chunk) => {
        size += chunk.length;
        // An endless body: stop reading and drop the connection (never handed back to the pool).
        if (size > limit) throw tooLarge('body holds', limit);
        chunks.push(chunk);
      },
      end: (rest) => {
        settled = true;
        detach();
        const read = response as ResponseHead;
        // Bytes past the response answer nothing asked: that connection is not used again.
        if (read.keepAlive && rest.length === 0)
          releaseConnection(host, port, socket, read.headers.get('keep-alive'));
        else socket.destroy();
        const encoding = read.headers.get('content-encoding');
        decodeBody(Buffer.concat(chunks), encoding, request.limits).then(
          (text) =>
            resolve({
              status: read.status,
              header: (name) => {
                const lower = name.toLowerCase();
                // As headerValue over node's IncomingMessage: Set-Cookie lines joined with ", ".
                if (lower === 'set-cookie')
                  return read.setCookies.length > 0 ? read.setCookies.join(', ') : undefined;
                return read.headers.get(lower);
              },
              setCookies: () => read.setCookies,
              text,
            }),
          reject,
        );
      },
    });
    const onData = (chunk: Buffer) => {
      try {
        parser.push(chunk);
      } catch (error) {
        fail(error);
      }
    };
    const onEnd = () => {
      try {
        parser.close();
      } catch (error) {
        fail(error);
      }
    };
    const onError = (error: Error) => fail(error);
    const onAbort = () => fail(abortError(signal as AbortSignal));
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('close', onEnd);
    socket.on('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
    writeRequest(socket, head, body);
  });
}

/** The head and body in one write: one packet for a small create, as node:http's cork gives. */
function writeRequest(socket: Socket, head: string, body: Buffer | undefined): void {
  const headBytes = Buffer.from(head, 'latin1');
  socket.write(body ? Buffer.concat([headBytes, body]) : headBytes);
}
