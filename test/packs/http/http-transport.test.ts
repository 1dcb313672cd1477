// The API client sends through node:http (a third of fetch's CPU per request). What a user
// relied on from fetch must still hold: the body the server meant, no redirect followed, the
// byte length declared, errors that say what failed — checked against a real local server.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/packs/http/client/api-client.js';
import { nodeHttpTransport } from '../../../src/packs/http/client/http-transport.js';
import { localServer } from './local-server.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(...args: Parameters<typeof localServer>) {
  const server = await localServer(...args);
  servers.push(server);
  return server;
}

describe('nodeHttpTransport', () => {
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

    const moved = await nodeHttpTransport(new URL(`${server.url}/moved`), { method: 'GET', headers: {} });
    expect(moved.status).toBe(303);
    expect(moved.header('Location')).toBe('/elsewhere');
    expect(moved.header('set-cookie')).toBe('a=1, b=2');
    expect(server.seen.map((seen) => seen.url)).toEqual(['/x', '/moved']);
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
});
