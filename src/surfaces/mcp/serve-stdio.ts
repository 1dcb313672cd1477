import { DEFAULT_MAX_MESSAGE_BYTES, LineStdioTransport } from './line-stdio-transport.js';
import { createMcpSession, type McpServeOptions } from './mcp-session.js';
import type { OversizedRequest } from './oversized-request.js';

export interface StdioServeOptions extends McpServeOptions {
  /** Requests over this many bytes are refused, one by one (default 10 MiB, the SDK's limit). */
  maxMessageBytes?: number;
  /** Resolves to end the session from outside (SIGTERM): the run ends `aborted` with `why`. */
  stopped?: Promise<string>;
}

function refusalText(request: OversizedRequest, limit: number): string {
  const what = request.toolName ? `${request.toolName} call` : (request.method ?? 'message');
  if (request.tooDeep !== undefined)
    return `PAYLOAD_TOO_LARGE: the ${what} (${request.bytes} bytes) nests JSON deeper than ${request.tooDeep} levels; it was not parsed and nothing was executed. Send flatter arguments.`;
  return `PAYLOAD_TOO_LARGE: the ${what} was ${request.bytes} bytes, over the ${limit}-byte limit of one stdio message; nothing was executed. Send the content in parts (write a first part with fs_write, then add to it with fs_edit), or use a smaller payload.`;
}

/** Serves one MCP session over stdin/stdout until the client closes it (or the server is stopped). */
export async function serveStdio(options: StdioServeOptions): Promise<void> {
  const pack = await options.build();
  const session = createMcpSession({ ...options, ...pack, transport: 'stdio' });
  session.begin();
  const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const transport = new LineStdioTransport({ maxMessageBytes: limit });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  transport.onoversized = (request) => {
    const text = refusalText(request, limit);
    process.stderr.write(`tally mcp: ${text}\n`);
    if (request.method === 'tools/call')
      session.recordRefusal(request.toolName ?? 'unknown', 'PAYLOAD_TOO_LARGE', {
        bytes: request.bytes,
        limit,
        ...(request.tooDeep !== undefined ? { depthLimit: request.tooDeep } : {}),
      });
    if (request.id === undefined) return; // a notification: nobody waits for an answer
    const reply =
      request.method === 'tools/call'
        ? {
            jsonrpc: '2.0' as const,
            id: request.id,
            result: { isError: true, content: [{ type: 'text', text }] },
          }
        : { jsonrpc: '2.0' as const, id: request.id, error: { code: -32600, message: text } };
    transport.send(reply).catch((error: Error) => transport.onerror?.(error));
  };
  await session.server.connect(transport);
  const stop = await Promise.race([
    closed.then(() => undefined),
    ...(options.stopped ? [options.stopped] : []),
  ]);
  const closing = transport.closing;
  const ended =
    stop !== undefined
      ? session.end({ reason: 'aborted', why: stop })
      : closing?.transportError
        ? session.end({ reason: 'aborted', why: closing.why, transportError: true })
        : session.end({ reason: 'finished' });
  // Closing aborts the calls still running; the end entry waits for theirs.
  await session.server.close();
  await ended;
}
