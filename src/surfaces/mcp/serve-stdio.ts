import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpSession, type McpServeOptions } from './mcp-session.js';

/** Serves one MCP session over stdin/stdout until the client closes it. */
export async function serveStdio(options: McpServeOptions): Promise<void> {
  const pack = await options.build();
  const session = createMcpSession({ ...options, ...pack, transport: 'stdio' });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await session.server.connect(transport);
  await closed;
  session.end('finished');
  await session.server.close();
}
