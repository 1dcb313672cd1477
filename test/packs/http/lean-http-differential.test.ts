// The lean HTTP/1.1 client against node:http, on the same bytes from a real socket (issue 22).
// A raw TCP server on 127.0.0.1 answers each request with the bytes of the case at hand, cut
// into random pieces; both transports must read the same status, headers and text, or both must
// fail. Generated responses cover every framing (length, chunked with extensions and trailers,
// to the close, none for HEAD/204/304), 1xx interim responses, repeated headers and Latin-1;
// the malformed ones are what an app or a proxy in between could send.

import { createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  nodeHttpTransport,
  type Transport,
  type TransportResponse,
} from '../../../src/packs/http/client/http-transport.js';
import { leanHttpTransport } from '../../../src/packs/http/client/lean-http-transport.js';

interface Case {
  /** The response's bytes, in the pieces the server writes them. */
  pieces: Buffer[];
  /** Close the connection after the response (a body read to the close). */
  close: boolean;
}

let current: Case = { pieces: [], close: true };
let server: Server;
let base = '';
const sockets = new Set<Socket>();
const requestsSeen: string[] = [];

/** Answers each complete request (head, then the body its Content-Length declares) with `current`. */
function answer(socket: Socket): void {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => undefined);
  let pending = Buffer.alloc(0);
  socket.on('data', async (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = pending.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (pending.length < end + 4 + length) return;
      requestsSeen.push(pending.toString('latin1', 0, end + 4 + length));
      pending = pending.subarray(end + 4 + length);
      const { pieces, close } = current;
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (close) socket.end();
    }
  });
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const NAMES = [
  'content-type',
  'location',
  'x-request-id',
  'set-cookie',
  'cookie',
  'etag',
  'vary',
  'X-Custom',
  'retry-after',
  'keep-alive',
];

/** What a caller can read of a response: status, the headers asked for by name, cookies, text. */
function seenOf(response: TransportResponse): unknown {
  return {
    status: response.status,
    headers: Object.fromEntries(
      [...NAMES, 'content-length', 'transfer-encoding', 'connection'].map((name) => [
        name,
        response.header(name) ?? null,
      ]),
    ),
    setCookies: response.setCookies(),
    text: response.text,
  };
}

async function outcome(transport: Transport, method: string, path: string): Promise<unknown> {
  try {
    const response = await transport(new URL(path, base), {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: '{"title":"Größe"}' } : {}),
    });
    return seenOf(response);
  } catch {
    return 'error';
  }
}

function cut(bytes: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((point) => point % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    if (point > from) pieces.push(bytes.subarray(from, point));
    from = Math.max(from, point);
  }
  if (from < bytes.length) pieces.push(bytes.subarray(from));
  return pieces;
}

/** Both transports on one case; the node one first, so the case's connection state is alike. */
async function both(testCase: Case, method: string): Promise<[unknown, unknown]> {
  current = testCase;
  const viaNode = await outcome(nodeHttpTransport, method, `/node-${requestsSeen.length}`);
  current = testCase;
  const viaLean = await outcome(leanHttpTransport, method, `/lean-${requestsSeen.length}`);
  return [viaLean, viaNode];
}

const headerValue = fc
  .string({ unit: fc.constantFrom('a', 'B', '1', ' ', '=', ';', ',', '/', 'é', '"', '\t'), maxLength: 12 })
  .map((value) => value.replace(/^[\s]+|[\s]+$/g, '') || 'v');
const headers = fc.array(fc.tuple(fc.constantFrom(...NAMES), headerValue, fc.boolean()), { maxLength: 6 });
const bodyText = fc.string({
  unit: fc.constantFrom('a', '{', '"', ':', '1', ' ', 'ü', '東', '\n', '\r'),
  maxLength: 40,
});

function render(
  version: string,
  status: number,
  pairs: [string, string, boolean][],
  framing: 'length' | 'chunked' | 'close' | 'none',
  body: string,
  chunkAt: number[],
  interim: boolean,
  connection: string | undefined,
  noBodyFor: boolean,
): { bytes: Buffer; close: boolean } {
  const payload = Buffer.from(body, 'utf8');
  let head = `${interim ? 'HTTP/1.1 100 Continue\r\n\r\n' : ''}HTTP/${version} ${status} Some Reason\r\n`;
  for (const [name, value, padded] of pairs)
    head += `${name}:${padded ? '  ' : ' '}${value}${padded ? ' ' : ''}\r\n`;
  if (connection) head += `Connection: ${connection}\r\n`;
  let tail: Buffer = payload;
  if (framing === 'length') head += `Content-Length: ${payload.length}\r\n`;
  if (framing === 'none') head += 'Content-Length: 0\r\n';
  if (framing === 'chunked') {
    head += 'Transfer-Encoding: chunked\r\n';
    const parts = cut(payload, chunkAt);
    tail = Buffer.concat([
      ...parts.flatMap((part, index) => [
        Buffer.from(`${part.length.toString(16)}${index % 2 ? ';ext=1' : ''}\r\n`),
        part,
        Buffer.from('\r\n'),
      ]),
      Buffer.from(chunkAt.length % 2 ? '0\r\nx-trailer: t\r\n\r\n' : '0\r\n\r\n'),
    ]);
  }
  // A HEAD, 204 or 304 response has no body whatever its headers say (a 204 with a body: below).
  const noBody = framing === 'none' || noBodyFor;
  return {
    bytes: Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), noBody ? Buffer.alloc(0) : tail]),
    close: framing === 'close',
  };
}

describe('the lean HTTP/1.1 client reads what node:http reads', () => {
  it('well-formed responses of every framing, cut anywhere: the same status, headers and text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('1.1', '1.0'),
        fc.constantFrom(200, 201, 202, 204, 301, 303, 304, 400, 404, 409, 422, 500),
        headers,
        fc.constantFrom('length', 'chunked', 'close', 'none') as fc.Arbitrary<
          'length' | 'chunked' | 'close' | 'none'
        >,
        bodyText,
        fc.array(fc.nat(80), { maxLength: 4 }),
        fc.array(fc.nat(400), { maxLength: 6 }),
        fc.boolean(),
        fc.option(fc.constantFrom('close', 'keep-alive', 'Keep-Alive'), { nil: undefined }),
        fc.constantFrom('GET', 'POST', 'HEAD', 'DELETE'),
        async (version, status, pairs, framing, body, chunkAt, cutAt, interim, connection, method) => {
          const noBody = method === 'HEAD' || status === 204 || status === 304;
          const rendered = render(
            version,
            status,
            pairs,
            framing,
            body,
            chunkAt,
            interim,
            connection,
            noBody,
          );
          const [lean, node] = await both(
            { pieces: cut(rendered.bytes, cutAt), close: rendered.close },
            method,
          );
          expect(lean).toEqual(node);
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);

  it.each([
    ['two different lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc'],
    [
      'a length beside chunked',
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
    ],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n'],
    [
      'chunk data longer than its size',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n',
    ],
    ['a space before the colon', 'HTTP/1.1 200 OK\r\nX-A : 1\r\nContent-Length: 0\r\n\r\n'],
    ['a line with no colon', 'HTTP/1.1 200 OK\r\nnonsense\r\nContent-Length: 0\r\n\r\n'],
    ['a signed length', 'HTTP/1.1 200 OK\r\nContent-Length: +3\r\n\r\nabc'],
    ['not HTTP', 'SSH-2.0-OpenSSH_9.6\r\n\r\n'],
    ['two equal lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc'],
    ['a list of lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc'],
    ['bare LF line ends', 'HTTP/1.1 200 OK\nContent-Length: 3\n\nabc'],
    ['a folded header line', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\nContent-Length: 3\r\n\r\nabc'],
    [
      'a space after a chunk size',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3 \r\nabc\r\n0\r\n\r\n',
    ],
    ['DEL in a value', 'HTTP/1.1 200 OK\r\nX-A: a\x7fb\r\nContent-Length: 0\r\n\r\n'],
    ['a two-digit status', 'HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n'],
    ['a body cut short', 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'],
    ['a chunked body cut short', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n'],
    ['a control character in a value', 'HTTP/1.1 200 OK\r\nX-A: a\x01b\r\nContent-Length: 0\r\n\r\n'],
    ['a head past 16 KiB', `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\nContent-Length: 0\r\n\r\n`],
  ])('%s: refused by both', async (_name, raw) => {
    const [lean, node] = await both({ pieces: [Buffer.from(raw, 'latin1')], close: true }, 'GET');
    expect(node).toBe('error');
    expect(lean).toBe('error');
  });

  // Where node:http reads on, the lean client stops: a protocol it did not ask for is no answer
  // to a create, and what it says cannot be trusted as one.
  it.each([
    ['HTTP/2 in HTTP/1 clothes', 'HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n'],
    ['a protocol switch never asked for', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n'],
  ])('%s: read by node:http, refused by the lean client', async (_name, raw) => {
    const [lean, node] = await both({ pieces: [Buffer.from(raw, 'latin1')], close: true }, 'GET');
    expect(node).not.toBe('error');
    expect(lean).toBe('error');
  });

  it('a 204 followed by stray bytes: the 204 is the answer, and the connection is dropped (node:http fails the request)', async () => {
    const raw = Buffer.from('HTTP/1.1 204 No Content\r\nContent-Length: 1\r\n\r\na');
    const [lean, node] = await both({ pieces: [raw], close: false }, 'DELETE');
    expect(node).toBe('error');
    expect(lean).toMatchObject({ status: 204, text: '' });
    // The next request does not read the stray byte as its answer.
    current = { pieces: [Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')], close: false };
    expect(await outcome(leanHttpTransport, 'GET', '/after')).toMatchObject({ status: 200, text: 'ok' });
  });

  it('sends node:http’s request bytes: the same head, the same body', async () => {
    current = { pieces: [Buffer.from('HTTP/1.1 204 No Content\r\n\r\n')], close: false };
    const sent = (transport: Transport, method: string, body?: string) => {
      const from = requestsSeen.length;
      return transport(new URL('/things?q=a%20b', base), {
        method,
        headers: { 'content-type': 'application/json', Accept: 'application/json', 'User-Agent': 'mine/1' },
        ...(body === undefined ? {} : { body }),
      }).then(() => requestsSeen.slice(from).join(''));
    };
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', '{"title":"naïve — 東京"}'],
      ['POST', undefined],
      ['DELETE', undefined],
      ['PATCH', '{}'],
    ] as const) {
      const viaNode = await sent(nodeHttpTransport, method, body);
      expect(await sent(leanHttpTransport, method, body), `${method} ${body}`).toBe(viaNode);
    }
    // What node:http refuses to send, the lean client refuses with the same code.
    for (const headersGiven of [
      { 'x-a': 'a\r\nInjected: 1' },
      { 'bad name': '1' },
      { 'x-a': '東' },
    ] as Record<string, string>[]) {
      const code = (transport: Transport) =>
        transport(new URL('/x', base), { method: 'GET', headers: headersGiven }).then(
          () => 'sent',
          (error: { code?: string }) => error.code,
        );
      expect(await code(leanHttpTransport)).toBe(await code(nodeHttpTransport));
    }
  });
});
