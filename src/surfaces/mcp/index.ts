// Public API of `tally/mcp`: serve Tally's tools over the Model Context Protocol from your own
// process. Importing this module has no side effects.
export { type CreateMcpServerOptions, createMcpServer } from './create-mcp-server.js';
export type { McpSession, McpSessionEnding } from './mcp-session.js';
