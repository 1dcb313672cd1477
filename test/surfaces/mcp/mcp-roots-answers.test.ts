import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../../src/packs/workspace/tools/index.js';
import { type HttpMcpServer, serveHttp } from '../../../src/surfaces/mcp/serve-http.js';
import { tempDir, tempLedger } from '../../helpers.js';

const servers: HttpMcpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  while (servers.length > 0) await servers.pop()?.close();
});

/** root/top.txt, root/a/x.txt: a client that offers root/a may read only x.txt. */
async function serve() {
  const root = realpathSync(tempDir());
  mkdirSync(join(root, 'a'));
  writeFileSync(join(root, 'top.txt'), 'top\n');
  writeFileSync(join(root, 'a', 'x.txt'), 'x\n');
  const logs: string[] = [];
  const server = await serveHttp({
    ledger: tempLedger(),
    failOpenLog: join(tempDir(), 'fail-open.jsonl'),
    port: 0,
    rootsTimeoutMs: 2000,
    log: (line) => logs.push(line),
    build: async () => {
      const projectRoot = await ProjectRoot.open(root);
      return { tools: workspaceTools({ root: projectRoot }), projectRoot };
    },
  });
  servers.push(server);
  return { root, server, logs };
}

async function connect(url: string, uris: string[]) {
  const client = new Client({ name: 'roots', version: '1.0.0' }, { capabilities: { roots: {} } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: uris.map((uri) => ({ uri })) }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

const read = (client: Client, path: string) => client.callTool({ name: 'fs_read', arguments: { path } });

describe('the roots a real client sends, over HTTP', () => {
  it('a root of another scheme beside a file root does not void the file root (the tools never widen to --root)', async () => {
    const { root, server, logs } = await serve();
    const client = await connect(server.url, [
      'https://example.test/repo',
      pathToFileURL(join(root, 'a')).href,
    ]);
    expect((await read(client, 'a/x.txt')).isError).toBeFalsy();
    const outside = await read(client, 'top.txt');
    expect(outside.isError).toBe(true);
    expect(JSON.stringify(outside.content)).toContain('outside-client-roots');
    expect(logs).toEqual([
      `the client's roots (https://example.test/repo, ${pathToFileURL(join(root, 'a')).href}): the tools serve ${join(root, 'a')}.`,
    ]);
  });

  it('the scheme is case-insensitive: FILE:/// and file:/ name the same folder', async () => {
    const { root, server } = await serve();
    for (const uri of [`FILE://${join(root, 'a')}`, `file:${join(root, 'a')}`]) {
      const client = await connect(server.url, [uri]);
      expect((await read(client, 'a/x.txt')).isError, uri).toBeFalsy();
      expect((await read(client, 'top.txt')).isError, uri).toBe(true);
    }
  });

  it('a root that is no URL at all (a bare path) narrows to nothing, never to the whole --root', async () => {
    const { root, server, logs } = await serve();
    const client = await connect(server.url, [join(root, 'a')]);
    expect((await read(client, 'top.txt')).isError).toBe(true);
    expect((await read(client, 'a/x.txt')).isError).toBe(true);
    expect(logs.at(-1)).toContain('name no path on this machine');
  });

  it('an answer that is no roots list fails open with a one-line reason naming the field', async () => {
    const { server, logs } = await serve();
    const client = new Client({ name: 'roots', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ name: 'no uri' }] }) as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    clients.push(client);
    expect((await read(client, 'top.txt')).isError).toBeFalsy();
    const line = logs.find((entry) => entry.startsWith('roots/list failed'));
    expect(line).toContain('roots.0.uri');
    expect(line).not.toContain('\n');
  });
});
