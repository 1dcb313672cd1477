import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpSession, type McpServeOptions, type McpSession } from './mcp-session.js';

export interface HttpMcpServer {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

/**
 * Streamable HTTP on 127.0.0.1 (DNS-rebinding protection on): one MCP session, and one
 * ledger run, per `mcp-session-id`.
 */
export async function serveHttp(
  options: McpServeOptions & { port: number; host?: string },
): Promise<HttpMcpServer> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; session: McpSession }>();
  const host = options.host ?? '127.0.0.1';
  let allowedHosts: string[] = [];
  const http = createServer(async (request, response) => {
    try {
      // Security: DNS rebinding — only our own Host, checked before any session (or run) exists.
      if (!allowedHosts.includes(String(request.headers.host))) {
        response.writeHead(403, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32000, message: `Host "${String(request.headers.host)}" is not allowed.` },
            id: null,
          }),
        );
        return;
      }
      if (!request.url?.startsWith('/mcp')) {
        response.writeHead(404).end('MCP endpoint is /mcp');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      const sessionId = request.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (existing) {
        await existing.transport.handleRequest(request, response, body);
        return;
      }
      if (request.method !== 'POST' || !isInitializeRequest(body)) {
        response.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'No valid session: send an initialize request first.' },
            id: null,
          }),
        );
        return;
      }
      // Each session gets its own narrowable project root, so one client's roots never narrow another's.
      const pack = await options.build();
      const session = createMcpSession({ ...options, ...pack, transport: 'http' });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts,
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, session });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        session.end('finished');
      };
      await session.server.connect(transport);
      await transport.handleRequest(request, response, body);
    } catch (error) {
      if (!response.headersSent)
        response.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32700, message: `Bad request: ${String(error)}` },
            id: null,
          }),
        );
    }
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, resolve);
  });
  const address = http.address() as AddressInfo;
  allowedHosts = [`${host}:${address.port}`, `localhost:${address.port}`];
  return {
    url: `http://${host}:${address.port}/mcp`,
    server: http,
    close: async () => {
      for (const { transport, session } of sessions.values()) {
        session.end('finished');
        await transport.close();
      }
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
