import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { TallyError } from '../../core/errors.js';
import { checkHttpAccess, isLoopbackHostname } from './check-http-access.js';
import { closeAfterAnswer } from './close-after-answer.js';
import { createMcpSession, type McpServeOptions, type McpSession } from './mcp-session.js';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';

/** Ten minutes without a request ends a session (and its ledger run). */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60 * 1000;
/** How long a client refused mid-upload has to read the 413 before its connection is reset. */
const OVERSIZED_UPLOAD_GRACE_MS = 5000;

export interface HttpServeOptions extends McpServeOptions {
  port: number;
  host?: string;
  /** Bearer token every request must carry; required off loopback. */
  authToken?: string;
  /** Exact browser origins allowed besides loopback ones. */
  allowOrigins?: string[];
  sessionIdleMs?: number;
  maxBodyBytes?: number;
}

export interface HttpMcpServer {
  url: string;
  server: Server;
  /** Open sessions right now (expired and closed ones are gone). */
  sessionCount: () => number;
  /** Ends every open session's run (`aborted` with `why` when given) and stops listening. */
  close: (why?: string) => Promise<void>;
}

interface OpenSession {
  transport: StreamableHTTPServerTransport;
  session: McpSession;
  lastActive: number;
  busy: number;
}

function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The endpoint is /mcp (a query string aside): /mcpanything, /mcp/x are other paths. */
function isMcpEndpoint(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0];
  return path === '/mcp' || path === '/mcp/';
}

/**
 * Streamable HTTP: one MCP session, and one ledger run, per `mcp-session-id`. Every request
 * passes the Host, Origin and token checks and the body limit before any session exists;
 * a run starts only once initialize succeeded; idle sessions expire.
 */
export async function serveHttp(options: HttpServeOptions): Promise<HttpMcpServer> {
  const host = options.host ?? '127.0.0.1';
  const loopback = isLoopbackHostname(host);
  // Security: off loopback anyone on the network can call the tools; a token is the minimum.
  if (!loopback && !options.authToken)
    throw new TallyError(
      'MCP_TOKEN_REQUIRED',
      `--host ${host} exposes the tools beyond this machine, so a token is required. Pass --auth-token <secret> (or set TALLY_MCP_TOKEN), or listen on 127.0.0.1.`,
      { host },
    );
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const sessions = new Map<string, OpenSession>();
  const policy = {
    port: 0,
    listenHost: host,
    allowOrigins: options.allowOrigins ?? [],
    ...(options.authToken ? { token: options.authToken } : {}),
  };

  const handleExisting = async (
    open: OpenSession,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ) => {
    // A GET is a listening stream that lasts as long as the session: it is not activity.
    const counts = request.method !== 'GET';
    open.lastActive = Date.now();
    if (counts) open.busy += 1;
    try {
      await open.transport.handleRequest(request, response, body);
    } finally {
      if (counts) open.busy -= 1;
      open.lastActive = Date.now();
    }
  };

  const handleInitialize = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    // Each session gets its own narrowable project root, so one client's roots never narrow another's.
    const pack = await options.build();
    const session = createMcpSession({ ...options, ...pack, transport: 'http' });
    const open: OpenSession = {
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          // Only now is the session real (the SDK refuses a bad Accept or Content-Type before).
          session.begin();
          sessions.set(id, open);
        },
      }),
      session,
      lastActive: Date.now(),
      busy: 1,
    };
    open.transport.onclose = () => {
      if (open.transport.sessionId) sessions.delete(open.transport.sessionId);
      // Awaited by `close` when the server stops; a client's DELETE needs nobody to wait.
      void session.end({ reason: 'finished' });
    };
    await session.server.connect(open.transport);
    try {
      await open.transport.handleRequest(request, response, body);
    } finally {
      open.busy -= 1;
      open.lastActive = Date.now();
    }
    if (!session.begun) {
      await session.end();
      await session.server.close();
    }
  };

  const http = createServer(async (request, response) => {
    try {
      const rejection = checkHttpAccess(request, policy);
      if (rejection) {
        sendJsonRpcError(response, rejection.status, -32000, rejection.message, rejection.headers);
        return;
      }
      if (!isMcpEndpoint(request.url)) {
        sendJsonRpcError(response, 404, -32000, 'Not found: the MCP endpoint is /mcp.');
        return;
      }
      let body: unknown;
      if (request.method === 'POST') {
        const read = await readJsonBody(request, maxBodyBytes);
        if (!read.ok) {
          if (read.status === 413) {
            // Security: stop reading the rest of an oversized upload; close once the 413 is out.
            closeAfterAnswer(request.socket, OVERSIZED_UPLOAD_GRACE_MS);
          }
          sendJsonRpcError(response, read.status, read.code, read.message, { connection: 'close' });
          return;
        }
        body = read.body;
      }
      const sessionId = request.headers['mcp-session-id'];
      if (typeof sessionId === 'string') {
        const open = sessions.get(sessionId);
        if (open) await handleExisting(open, request, response, body);
        // The spec's answer for an ended (expired) session: 404, and the client re-initializes.
        else
          sendJsonRpcError(
            response,
            404,
            -32001,
            'Session not found (it ended or expired): initialize a new one.',
          );
        return;
      }
      if (request.method !== 'POST' || !isInitializeRequest(body)) {
        sendJsonRpcError(response, 400, -32000, 'No valid session: send an initialize request first.');
        return;
      }
      await handleInitialize(request, response, body);
    } catch (error) {
      if (!response.headersSent) sendJsonRpcError(response, 500, -32603, `Internal error: ${String(error)}`);
    }
  });

  const expire = () => {
    const now = Date.now();
    for (const [id, open] of sessions) {
      if (open.busy > 0 || now - open.lastActive < idleMs) continue;
      sessions.delete(id);
      // Not busy: nothing runs, so the end entry is written at once.
      void open.session.end({ reason: 'aborted', why: `expired after ${idleMs} ms without a request` });
      open.transport.close().catch((error: Error) => open.transport.onerror?.(error));
    }
  };
  const sweep = setInterval(expire, Math.min(Math.max(Math.floor(idleMs / 4), 100), 60_000));
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, resolve);
  });
  const address = http.address() as AddressInfo;
  policy.port = address.port;
  // A wildcard listener is reached locally through loopback (a Host of 0.0.0.0 is refused).
  const reachable =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const urlHost = reachable.includes(':') ? `[${reachable}]` : reachable;
  return {
    url: `http://${urlHost}:${address.port}/mcp`,
    server: http,
    sessionCount: () => sessions.size,
    close: async (why) => {
      clearInterval(sweep);
      const ends: Promise<void>[] = [];
      for (const { transport, session } of [...sessions.values()]) {
        // Asked first, so the close below is not taken for the client's; closing aborts the
        // calls still running, whose entries then come before the end entry.
        ends.push(session.end(why ? { reason: 'aborted', why } : { reason: 'finished' }));
        await transport.close();
      }
      sessions.clear();
      await Promise.all(ends);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
