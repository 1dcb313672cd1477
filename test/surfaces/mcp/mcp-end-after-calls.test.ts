import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/core/tool.js';
import { createMcpServer } from '../../../src/surfaces/mcp/create-mcp-server.js';
import { serveHttp } from '../../../src/surfaces/mcp/serve-http.js';
import { tempDir, tempLedger } from '../../helpers.js';

/** A tool that runs until its call is aborted, and says when it started. */
function hangingTool(started: () => void) {
  return defineTool({
    name: 'hang',
    description: 'Runs until aborted.',
    inputSchema: z.object({}),
    annotations: { readOnly: true },
    // Without the session's own wait, the late call would hang until this deadline.
    timeoutMs: 5000,
    execute: async () => {
      started();
      return new Promise<never>(() => {});
    },
  });
}

describe('a session that ends while a call runs', () => {
  it('over HTTP, stopping the server writes the running call’s entry before the end entry', async () => {
    const ledger = tempLedger();
    let began: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      began = resolve;
    });
    const server = await serveHttp({
      ledger,
      failOpenLog: join(tempDir(), 'fail-open.jsonl'),
      port: 0,
      build: async () => ({ tools: [hangingTool(began)] }),
    });
    const client = new Client({ name: 'end', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const call = client.callTool({ name: 'hang', arguments: {} }).catch(() => undefined);
    await running;
    await server.close('the server was stopped (SIGTERM)');
    await ledger.commit();
    const [run] = ledger.listRuns();
    const entries = ledger.entries(run?.id ?? '');
    // Every entry of the run comes before its end, and the end counts the aborted call.
    expect(entries.map((entry) => entry.kind)).toEqual(['tool_call', 'end']);
    expect(entries[0]).toMatchObject({ name: 'hang', outcome: 'error' });
    expect(entries[1]?.data).toMatchObject({ status: 'failed', counts: { toolCalls: 1, failures: 1 } });
    await client.close();
    await call;
  });

  it('a call that comes once the session is ending is refused unrun, and the end entry stays last', async () => {
    const ledger = tempLedger();
    let began: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      began = resolve;
    });
    const session = createMcpServer({ tools: [hangingTool(began)], ledger });
    session.begin();
    const [clientSide, serverSide] = (
      await import('@modelcontextprotocol/sdk/inMemory.js')
    ).InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const client = new Client({ name: 'end', version: '1.0.0' });
    await client.connect(clientSide);
    const first = client.callTool({ name: 'hang', arguments: {} }).catch(() => undefined);
    await running;
    const ended = session.end({ reason: 'aborted', why: 'test' });
    const late = await client.callTool({ name: 'hang', arguments: {} });
    expect(late.isError).toBe(true);
    expect(JSON.stringify(late.content)).toContain('SESSION_ENDED');
    await session.server.close();
    await ended;
    await first;
    await ledger.commit();
    const [run] = ledger.listRuns();
    expect(ledger.entries(run?.id ?? '').map((entry) => entry.kind)).toEqual(['tool_call', 'end']);
  });
});
