import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFishContext } from '../../../src/agents/fisherman/fish-context.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { httpTools } from '../../../src/packs/http/tools/index.js';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../../src/packs/workspace/tools/index.js';
import { prepareDataTool } from '../../../src/surfaces/mcp/prepare-data-tool.js';
import { type HttpMcpServer, serveHttp } from '../../../src/surfaces/mcp/serve-http.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from '../../packs/http/demo-fixtures.js';

const servers: HttpMcpServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function client(url: string) {
  const mcp = new Client({ name: 'http-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(url)));
  return mcp;
}

describe('tally MCP over streamable HTTP', () => {
  it('serves the workspace tools; each session is its own ledger run', async () => {
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
    });
    servers.push(server);
    const first = await client(server.url);
    const written = await first.callTool({
      name: 'fs_write',
      arguments: { path: 'web.txt', content: 'over http' },
    });
    expect(written.structuredContent).toMatchObject({ ok: true, path: 'web.txt', bytes: 9 });
    expect(readFileSync(join(root, 'web.txt'), 'utf8')).toBe('over http');
    const second = await client(server.url);
    const read = await second.callTool({ name: 'fs_read', arguments: { path: 'web.txt' } });
    expect(read.structuredContent).toMatchObject({ content: 'over http' });
    await first.close();
    await second.close();
    const runs = ledger.listRuns();
    expect(runs).toHaveLength(2);
    expect(runs.every((run) => run.agent === 'mcp' && run.toolCalls === 1)).toBe(true);
  });

  it('refuses requests whose Host is not the server’s own (DNS rebinding)', async () => {
    const ledger = tempLedger();
    const root = tempDir();
    const server = await serveHttp({
      ledger,
      failOpenLog: join(root, 'f.jsonl'),
      port: 0,
      build: async () => ({ tools: [] }),
    });
    servers.push(server);
    // fetch() will not send a forged Host header; node:http will, as a rebinding attacker's page would.
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(server.url);
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: 'evil.example',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    expect(status).toBe(403);
    expect(ledger.listRuns()).toHaveLength(0);
  });

  it('serves Fisherman: prepare_data creates verified data through the demo app', async () => {
    const { app } = await demoApp();
    const ledger = tempLedger();
    const root = tempDir();
    const fish = {
      captures: [BUNDLED_HAR],
      baseUrl: app.url,
      scope: '/projects/alpha-shop',
      login: DEMO_LOGIN,
    };
    const server = await serveHttp({
      ledger,
      failOpenLog: join(root, 'f.jsonl'),
      port: 0,
      build: async () => ({
        tools: [...httpTools(await buildFishContext(fish)), prepareDataTool(ledger, fish)],
      }),
    });
    servers.push(server);
    const mcp = await client(server.url);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_endpoint_spec',
      'request',
      'lookup',
      'prepare_data',
    ]);
    const result = await mcp.callTool({
      name: 'prepare_data',
      arguments: { request: '1 suite with 2 tests in it' },
    });
    expect(result.structuredContent).toMatchObject({
      ok: true,
      endingReason: 'finished',
      verified: [{ type: 'suite' }, { type: 'test' }, { type: 'test' }],
    });
    expect(app.store.tests.size).toBe(2);
    await mcp.close();
  });
});
