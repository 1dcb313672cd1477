// The API client sends through node:http (a third of fetch's CPU per request). What a user
// relied on from fetch must still hold: the body the server meant, no redirect followed, the
// byte length declared, errors that say what failed — checked against a real local server.
import { getEventListeners } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/packs/http/client/api-client.js';
import {
  fetchTransport,
  MAX_DECODED_BYTES,
  MAX_RESPONSE_BYTES,
  nodeHttpTransport,
} from '../../../src/packs/http/client/http-transport.js';
import { leanHttpTransport } from '../../../src/packs/http/client/lean-http-transport.js';
import { json, localServer } from './local-server.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(...args: Parameters<typeof localServer>) {
  const server = await localServer(...args);
  servers.push(server);
  return server;
}

/**
 * A raw HTTP server whose connections answer their first request (kept alive) and drop the
 * second unanswered, as a server closing an idle connection just then would.
 */
async function droppingServer(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket: Socket) => {
    sockets.add(socket);
    let requests = 0;
    socket.on('data', (chunk) => {
      requests += 1;
      seen.push(`${chunk.toString('latin1').split(' ', 2).join(' ')} #${requests}`);
      if (requests > 1) return socket.destroy();
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

// Both transports the API client may send through hold every promise: the lean HTTP/1.1 client
// (the default) and node:http (TALLY_HTTP_CLIENT=node).
describe.each([
  ['leanHttpTransport', leanHttpTransport, ''],
  ['nodeHttpTransport', nodeHttpTransport, 'node'],
] as const)('%s', (_name, transport, clientSwitch) => {
  const previousSwitch = process.env.TALLY_HTTP_CLIENT;
  beforeAll(() => {
    process.env.TALLY_HTTP_CLIENT = clientSwitch;
  });
  afterAll(() => {
    if (previousSwitch === undefined) delete process.env.TALLY_HTTP_CLIENT;
    else process.env.TALLY_HTTP_CLIENT = previousSwitch;
  });

  it('an abort stops the request while waiting and while the body streams; a finished request leaves no listener on the signal', async () => {
    const server = await serve((seen, res) => {
      if (seen.url === '/wait') return;
      if (seen.url === '/half') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
        return res.write('partly');
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('done');
    });
    const send = (path: string, signal: AbortSignal) =>
      transport(new URL(path, server.url), { method: 'GET', headers: {}, signal });
    const finished = new AbortController();
    await expect(send('/ok', finished.signal)).resolves.toMatchObject({ status: 200, text: 'done' });
    expect(getEventListeners(finished.signal, 'abort')).toHaveLength(0);
    for (const path of ['/wait', '/half']) {
      const controller = new AbortController();
      const sending = send(path, controller.signal);
      setTimeout(() => controller.abort(), 50);
      await expect(sending, path).rejects.toThrow();
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    }
    const before = AbortSignal.abort();
    await expect(send('/ok', before)).rejects.toMatchObject({ name: 'AbortError' });
    const waiting = new AbortController();
    const sending = send('/wait', waiting.signal);
    setTimeout(() => waiting.abort(), 20);
    await expect(sending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('undoes %s, as fetch would', async (encoding, compress) => {
    const server = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(compress(Buffer.from('{"data":{"id":7,"title":"Größe ✓"}}')));
    });
    const client = new ApiClient({ baseUrl: server.url });
    const response = await client.send({ method: 'POST', path: '/things', body: { title: 'x' } });
    expect(response.body).toEqual({ data: { id: 7, title: 'Größe ✓' } });
    expect(response.ids).toEqual(['7']);
  });

  it('declares the UTF-8 byte length, drops a BOM, never follows a redirect, joins repeated headers', async () => {
    const server = await serve((seen, res) => {
      if (seen.url === '/moved') {
        res.writeHead(303, { location: '/elsewhere', 'set-cookie': ['a=1', 'b=2'] });
        return res.end();
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(`\uFEFF${JSON.stringify({ id: 3, echo: seen.body })}`);
    });
    const body = { title: 'naïve — 東京' };
    const made = await new ApiClient({ baseUrl: server.url }).send({ method: 'POST', path: '/x', body });
    expect(made.body).toEqual({ id: 3, echo: JSON.stringify(body) });
    expect(server.seen[0]?.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(body))));
    expect(server.seen[0]?.headers['transfer-encoding']).toBeUndefined();
    expect(server.seen[0]?.headers['user-agent']).toBe('tally-harness');
    await transport(new URL(`${server.url}/ua`), {
      method: 'GET',
      headers: { 'User-Agent': 'mine/1' },
    });
    expect(server.seen.at(-1)?.headers['user-agent']).toBe('mine/1');

    const moved = await transport(new URL(`${server.url}/moved`), { method: 'GET', headers: {} });
    expect(moved.status).toBe(303);
    expect(moved.header('Location')).toBe('/elsewhere');
    expect(moved.header('set-cookie')).toBe('a=1, b=2');
    expect(server.seen.map((seen) => seen.url)).toEqual(['/x', '/ua', '/moved']);
  });

  it('a server that is not there is named by its system error, and the create is remembered as lost', async () => {
    const server = await serve((_, res) => res.end());
    const url = server.url;
    await server.close();
    servers.pop();
    const client = new ApiClient({ baseUrl: url, marker: 'run-1' });
    await expect(
      client.send({ method: 'POST', path: '/things', body: { title: 'A run-1' } }),
    ).rejects.toThrow(/POST \/things got no response \(ECONNREFUSED\): the server may or may not have acted/);
  });

  it('a connection the server drops mid-response is a lost response, not a crash', async () => {
    const server = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"id":');
      res.socket?.destroy();
    });
    const client = new ApiClient({ baseUrl: server.url });
    await expect(client.send({ method: 'POST', path: '/things', body: {} })).rejects.toThrow(
      /got no response \((ECONNRESET|aborted)\)/,
    );
  });

  it('a kept-alive connection the server drops as a request goes out: an idempotent request is sent again on a new one, a create is not', async () => {
    const get = await droppingServer();
    const read = () => transport(new URL(`${get.url}/items`), { method: 'GET', headers: {} });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    expect(get.seen).toEqual(['GET /items #1', 'GET /items #2', 'GET /items #1']);

    const post = await droppingServer();
    const create = () =>
      transport(new URL(`${post.url}/items`), { method: 'POST', headers: {}, body: '{"title":"A"}' });
    expect((await create()).status).toBe(200);
    await expect(create()).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(post.seen).toEqual(['POST /items #1', 'POST /items #2']);
  });

  it('a server slower than the idle timeout still answers: the idle limit is for unused connections only', async () => {
    const server = await serve((_, res) => {
      setTimeout(() => json(res, 201, { id: 9 }), 1300);
    });
    const made = await new ApiClient({ baseUrl: server.url }).send({
      method: 'POST',
      path: '/slow',
      body: {},
    });
    expect(made.status).toBe(201);
    expect(made.ids).toEqual(['9']);
  });

  describe('response caps (issue 19, item 10)', () => {
    // 96 MiB of zeros gzip to ~95 KiB: past the decoded cap, far under the wire cap.
    const bomb = gzipSync(Buffer.alloc(MAX_DECODED_BYTES * 3), { level: 9 });

    it('a gzip bomb stops at the decoded cap with RESPONSE_TOO_LARGE, never inflated whole', async () => {
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const server = await serve((_, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(bomb);
      });
      const before = process.memoryUsage().arrayBuffers;
      const client = new ApiClient({ baseUrl: server.url });
      await expect(client.send({ method: 'GET', path: '/things' })).rejects.toMatchObject({
        code: 'RESPONSE_TOO_LARGE',
        message: expect.stringMatching(
          /GET \/things: the response inflates \(gzip\) to more than 33554432 bytes/,
        ),
      });
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(MAX_DECODED_BYTES * 2);
      // A small limit applies the same way, for each coding.
      for (const [encoding, body] of [
        ['deflate', deflateSync(Buffer.alloc(4096))],
        ['br', brotliCompressSync(Buffer.alloc(4096))],
      ] as const) {
        const small = await serve((_, res) => {
          res.writeHead(200, { 'content-encoding': encoding });
          res.end(body);
        });
        await expect(
          transport(new URL(`${small.url}/x`), {
            method: 'GET',
            headers: {},
            limits: { maxDecodedBytes: 1000 },
          }),
        ).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
      }
    });

    it('an endless body is cut at the wire cap and the connection dropped; a declared oversize is refused unread', async () => {
      let sent = 0;
      const endless = await serve((_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) sent += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      const client = new ApiClient({ baseUrl: endless.url });
      await expect(client.send({ method: 'POST', path: '/things', body: {} })).rejects.toMatchObject({
        code: 'RESPONSE_TOO_LARGE',
        message: expect.stringMatching(
          /POST \/things: the response body holds more than 33554432 bytes.*may have acted/,
        ),
      });
      expect(sent).toBeLessThan(MAX_RESPONSE_BYTES * 3);

      const declared = await serve((_, res) => {
        res.writeHead(200, { 'content-length': String(MAX_RESPONSE_BYTES + 1) });
        res.write('x');
      });
      await expect(
        transport(new URL(`${declared.url}/x`), { method: 'GET', headers: {} }),
      ).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
      // An injected fetch is capped too.
      await expect(
        fetchTransport(fetch)(new URL(`${endless.url}/x`), {
          method: 'GET',
          headers: {},
          limits: { maxDecodedBytes: 1 << 20 },
        }),
      ).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    }, 30_000);
  });
});
