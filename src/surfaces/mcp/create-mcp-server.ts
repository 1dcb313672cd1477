import { dirname, join } from 'node:path';
import type { Ledger } from '../../core/ledger/ledger.js';
import type { ToolDefinition } from '../../core/tool.js';
import type { ProjectRoot } from '../../packs/workspace/project-root.js';
import { createMcpSession, type McpSession } from './mcp-session.js';

export interface CreateMcpServerOptions {
  /** The tools to serve (`workspaceTools`, `recordsTools`, your own `defineTool`s). */
  tools: ToolDefinition[];
  /** Every call of the session is recorded here, as one run. */
  ledger: Ledger;
  /** When set, the client's `roots` may narrow access inside it (never widen it). */
  projectRoot?: ProjectRoot;
  /** Default: `fail-open.jsonl` beside the ledger. */
  failOpenLog?: string;
  /** Recorded with the run; labels which transport you connect. Default `stdio`. */
  transport?: 'stdio' | 'http';
  meta?: Record<string, unknown>;
  /** Serialized results above this are cut with a notice. */
  maxResultBytes?: number;
  /** Values known to be secret (an http pack's `FishContext.knownSecrets`): scrubbed wherever they reappear. */
  knownSecrets?: string[];
  /** How long a tool call waits for the client's `roots/list` answer (default 1500 ms). */
  rootsTimeoutMs?: number;
  /** Where the session says what the client's roots did (default: stderr). */
  log?: (line: string) => void;
}

/**
 * One MCP server for one session, for embedding Tally's tools in your own process: connect
 * `server` to any SDK transport, and call `end()` when the session is over so the run gets
 * its `end` entry. `tally mcp` uses the same session code.
 */
export function createMcpServer(options: CreateMcpServerOptions): McpSession {
  return createMcpSession({
    ...options,
    transport: options.transport ?? 'stdio',
    failOpenLog: options.failOpenLog ?? join(dirname(options.ledger.path), 'fail-open.jsonl'),
  });
}
