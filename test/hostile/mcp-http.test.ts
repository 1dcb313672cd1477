import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../src/packs/workspace/tools/index.js';
import { closeAfterAnswer } from '../../src/surfaces/mcp/close-after-answer.js';
import { type HttpMcpServer, type HttpServeOptions, serveHttp } from '../../src/surfaces/mcp/serve-http.js';
import { tempDir, tempLedger } from '../helpers.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const servers: HttpMcpServer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function start(extra: Partial<HttpServeOptions> = {}) {
  const root = tempDir();
  const ledger = tempLedger();
  const server = await serveHttp({
    ledger,
    failOpenLog: join(root, 'fail-open.jsonl'),
    port: 0,
    build: async () => {
      const projectRoot = await ProjectRoot.open(root);
      return { tools: workspaceTools({ root: projectRoot }), projectRoot };
    },
    ...extra,
  });
  servers.push(server);
  return { root, ledger, server };
}

async function client(url: string, headers: Record<string, string> = {}) {
  const mcp = new Client({ name: 'hostile-http', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return mcp;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

interface RawResponse {
  status: number;
  body: string;
}

/** A raw POST (node:http sends any header, as an attacker would), optionally streaming `bodyBytes`. */
function post(
  url: string,
  headers: Record<string, string>,
  body: string | { bytes: number } = INITIALIZE,
  connect: { host?: string } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  let answered = false;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: connect.host ?? target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        // A server that closes an oversized upload may cut the answer short: what came is the answer.
        response.on('close', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // The server closes an oversized upload once it answered; the answer already came.
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    // A connection that ends with no answer at all fails the test now instead of hanging it.
    request.on('close', () => {
      if (!answered) reject(new Error('the connection closed before any answer came'));
    });
    if (typeof body === 'string') {
      request.end(body);
      return;
    }
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < body.bytes && !request.destroyed) {
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      if (!request.destroyed) request.end();
    };
    pump();
  });
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('MCP over HTTP, attacked', () => {
  it('ends an idle session: its run gets an end entry and its id answers 404', async () => {
    const { ledger, server } = await start({ sessionIdleMs: 300 });
    const mcp = await client(server.url);
    await mcp.callTool({ name: 'fs_write', arguments: { path: 'a.txt', content: 'a' } });
    expect(server.sessionCount()).toBe(1);
    await waitFor(() => server.sessionCount() === 0);
    const [run] = ledger.listRuns();
    expect(run).toMatchObject({ endingReason: 'aborted', toolCalls: 1 });
    const end = ledger.entries(run?.id ?? '').find((entry) => entry.kind === 'end');
    expect(String((end?.data as { summary?: string } | undefined)?.summary)).toMatch(/expired after 300 ms/);
    await expect(mcp.callTool({ name: 'fs_read', arguments: { path: 'a.txt' } })).rejects.toThrow(
      /404|not found/i,
    );
  });

  it('refuses a 400 MB body with 413 while it streams, and keeps serving', async () => {
    const { ledger, server } = await start();
    const declared = await post(server.url, { 'content-length': String(400 * 1024 * 1024) }, '{}');
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    // No Content-Length: chunked, counted as it arrives.
    const streamed = await post(server.url, {}, { bytes: 400 * 1024 * 1024 });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.message).toMatch(/over the 4194304-byte limit/);
    expect(ledger.listRuns()).toHaveLength(0);
    const mcp = await client(server.url);
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
    await mcp.close();
  });

  it('lets a client still uploading, and slow to read, get the 413 before the connection is reset', async () => {
    const { server } = await start();
    const target = new URL(server.url);
    const socket = connect(Number(target.port), target.hostname);
    socket.on('error', () => {}); // the reset that ends it, once the answer is read
    socket.write(
      `POST ${target.pathname} HTTP/1.1\r\nhost: ${target.host}\r\ncontent-type: application/json\r\n` +
        'accept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n',
    );
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    let uploading = true;
    const pump = () => {
      while (uploading && !socket.destroyed) if (!socket.write(frame)) return void socket.once('drain', pump);
    };
    // Busy writing, not reading: a server that closes at once resets this connection, and the
    // unread 413 is lost with it.
    socket.pause();
    pump();
    await new Promise((resolve) => setTimeout(resolve, 300));
    let answer = '';
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1');
    });
    socket.resume();
    await new Promise((resolve) => setTimeout(resolve, 700));
    uploading = false;
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/over the 4194304-byte limit/);
  });

  it('resets a refused upload after its grace period even when the client never reads or stops', async () => {
    const closed = new Promise<number>((resolve, reject) => {
      const listener = createNetServer((socket) => {
        const start = Date.now();
        socket.on('error', () => {});
        closeAfterAnswer(socket, 200);
        socket.write('HTTP/1.1 413 Payload Too Large\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        socket.destroySoon(); // what the http server does once the answer is finished
        socket.on('close', () => {
          listener.close();
          resolve(Date.now() - start);
        });
      }).listen(0, '127.0.0.1', () => {
        const hostile = connect((listener.address() as AddressInfo).port, '127.0.0.1');
        hostile.on('error', () => {});
        hostile.pause(); // never reads, never ends: only the server's timer closes this
        const junk = Buffer.alloc(64 * 1024, 0x20);
        const flood = () => {
          while (!hostile.destroyed && hostile.write(junk));
          if (!hostile.destroyed) hostile.once('drain', flood);
        };
        flood();
        setTimeout(() => {
          hostile.destroy();
          reject(new Error('the server kept the connection past its grace period'));
        }, 5000).unref();
      });
    });
    expect(await closed).toBeGreaterThanOrEqual(150);
  });

  it('leaves no ledger run for initializes refused with 406, 415, 400, 401 or 403', async () => {
    const { ledger, server } = await start({ authToken: 's3cret' });
    const auth = { authorization: 'Bearer s3cret' };
    expect((await post(server.url, { ...auth, accept: 'application/json' })).status).toBe(406);
    expect((await post(server.url, { ...auth, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(server.url, auth, '{"jsonrpc":')).status).toBe(400);
    expect((await post(server.url, {})).status).toBe(401);
    expect((await post(server.url, { ...auth, origin: 'https://evil.example' })).status).toBe(403);
    expect(ledger.listRuns()).toHaveLength(0);
  });

  it('serves /mcp only: a path that merely starts with it is 404 and starts no run', async () => {
    const { server, ledger } = await start();
    const base = server.url.replace(/\/mcp$/, '');
    for (const path of ['/mcpx', '/mcp-admin', '/mcp/other', '/mcp.json'])
      expect((await post(`${base}${path}`, {})).status, path).toBe(404);
    expect((await post(`${server.url}?client=1`, {})).status).toBe(200);
    await ledger.commit();
    expect(ledger.listRuns()).toHaveLength(1);
  });

  it('checks Origin against loopback and --allow-origin; a client without Origin passes', async () => {
    const { ledger, server } = await start({ allowOrigins: ['https://app.example'] });
    const evil = await post(server.url, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.message).toMatch(/--allow-origin https:\/\/evil\.example/);
    expect((await post(server.url, { origin: 'http://localhost:6274' })).status).toBe(200);
    expect((await post(server.url, { origin: 'https://app.example' })).status).toBe(200);
    expect((await post(server.url, {})).status).toBe(200);
    expect(ledger.listRuns()).toHaveLength(3);
  });

  it('requires the bearer token when one is set', async () => {
    const { server } = await start({ authToken: 's3cret' });
    await expect(client(server.url)).rejects.toThrow(/Missing or wrong bearer token/);
    await expect(client(server.url, { authorization: 'Bearer wrong' })).rejects.toThrow(
      /Missing or wrong bearer token/,
    );
    const mcp = await client(server.url, { authorization: 'Bearer s3cret' });
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
    await mcp.close();
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
  it.skipIf(!external)(
    'refuses Host: localhost from a non-loopback peer of a 0.0.0.0 listener (skipped without a non-loopback IPv4 interface)',
    async () => {
      const { ledger, server } = await start({ host: '0.0.0.0', authToken: 's3cret' });
      const port = new URL(server.url).port;
      const auth = { authorization: 'Bearer s3cret' };
      const forged = await post(server.url, { ...auth, host: `localhost:${port}` }, INITIALIZE, {
        host: external,
      });
      expect(forged.status).toBe(403);
      expect(JSON.parse(forged.body).error.message).toMatch(/not allowed from/);
      const honest = await post(server.url, { ...auth, host: `${external}:${port}` }, INITIALIZE, {
        host: external,
      });
      expect(honest.status).toBe(200);
      expect(ledger.listRuns()).toHaveLength(1);
    },
  );
});

function spawnTally(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, 'mcp', ...args], {
    env: { ...process.env, TALLY_LEDGER: '', TALLY_MCP_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

describe('tally mcp --transport http, the process', () => {
  it('exits 2 on a non-loopback --host without a token, and warns loudly with one', async () => {
    const root = tempDir();
    const refused = spawnTally(['--root', root, '--transport', 'http', '--host', '0.0.0.0']);
    expect(await refused.exited).toBe(2);
    expect(refused.stderr()).toMatch(/--host 0\.0\.0\.0 .*token is required.*--auth-token/);
    const served = spawnTally(['--root', root, '--transport', 'http', '--host', '0.0.0.0'], {
      TALLY_MCP_TOKEN: 's3cret',
    });
    await waitFor(() => served.stderr().includes('streamable HTTP'));
    expect(served.stderr()).toMatch(/WARNING: --host 0\.0\.0\.0 serves the tools to every machine/);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s ends every open run with an aborted end entry before it exits',
    async (signal) => {
      const root = tempDir();
      const served = spawnTally(['--root', root, '--transport', 'http', '--port', '0']);
      await waitFor(() => /on (http:\S+)/.test(served.stderr()));
      const url = /on (http:\S+)/.exec(served.stderr())?.[1] ?? '';
      const first = await client(url);
      const second = await client(url);
      await first.callTool({ name: 'fs_write', arguments: { path: 'a.txt', content: 'a' } });
      await second.listTools();
      served.child.kill(signal);
      expect(await served.exited).toBe(0);
      const ledger = Ledger.open(join(root, '.tally', 'ledger.db'));
      const runs = ledger.listRuns();
      const ends = runs.map((run) => ledger.entries(run.id).find((entry) => entry.kind === 'end'));
      ledger.close();
      expect(runs).toHaveLength(2);
      for (const run of runs) expect(run.endingReason).toBe('aborted');
      for (const end of ends)
        expect(String((end?.data as { summary?: string } | undefined)?.summary)).toMatch(
          new RegExp(`the server was stopped \\(${signal}\\)`),
        );
    },
  );
});
