import { realpath } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createFailOpen } from '../../core/fail-open.js';
import { invokeTool } from '../../core/invoke-tool.js';
import type { Ledger, RunRecorder } from '../../core/ledger/ledger.js';
import type { ToolDefinition } from '../../core/tool.js';
import type { ProjectRoot } from '../../packs/workspace/project-root.js';
import { toMcpTool } from './to-mcp-tool.js';

export interface McpSessionOptions {
  tools: ToolDefinition[];
  ledger: Ledger;
  failOpenLog: string;
  /** When set, client roots may narrow access inside it (never widen). */
  projectRoot?: ProjectRoot;
  transport: 'stdio' | 'http';
  meta?: Record<string, unknown>;
}

/** Builds a session's tools; called once per session, so a client's roots narrow only its own root. */
export type McpPackFactory = () => Promise<{ tools: ToolDefinition[]; projectRoot?: ProjectRoot }>;

export interface McpServeOptions {
  ledger: Ledger;
  failOpenLog: string;
  build: McpPackFactory;
  meta?: Record<string, unknown>;
}

export interface McpSession {
  server: Server;
  recorder: RunRecorder;
  /** Writes the run's end entry; call when the transport closes. */
  end: (reason?: 'finished' | 'aborted') => void;
}

async function rootPaths(uris: { uri: string }[]): Promise<string[]> {
  const paths: string[] = [];
  for (const { uri } of uris) {
    if (!uri.startsWith('file://')) continue;
    try {
      paths.push(await realpath(fileURLToPath(uri)));
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
  }
  return paths;
}

/**
 * One MCP session = one run in the ledger. Every call goes through invokeTool, so it is
 * validated, classified and recorded exactly like an agent's; errors come back as tool
 * errors carrying their reason code.
 */
export function createMcpSession(options: McpSessionOptions): McpSession {
  const server = new Server(
    { name: 'tally', version: '0.1.0' },
    {
      capabilities: { tools: {} },
      instructions:
        'Project-scoped tools whose results carry evidence (bytes and sha256 read back from disk).',
    },
  );
  const recorder = options.ledger.startRun({
    agent: 'mcp',
    task: `MCP session over ${options.transport}`,
    meta: { transport: options.transport, tools: options.tools.map((tool) => tool.name), ...options.meta },
  });
  const failOpen = createFailOpen({
    logPath: options.failOpenLog,
    onRecord: (line) =>
      recorder.append({ kind: 'fail_open', name: line.component, outcome: line.why, data: { ...line } }),
  });
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const listed = options.tools.map(toMcpTool);
  let rootsReady: Promise<void> = Promise.resolve();
  const counts = { calls: 0, ok: 0 };

  const refreshRoots = async () => {
    if (!options.projectRoot || !server.getClientCapabilities()?.roots) return;
    const { roots } = await server.listRoots();
    options.projectRoot.narrow(await rootPaths(roots));
  };
  server.oninitialized = () => {
    rootsReady = refreshRoots();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    rootsReady = refreshRoots();
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    await rootsReady;
    const tool = byName.get(request.params.name);
    counts.calls += 1;
    if (!tool) {
      recorder.append({
        kind: 'tool_call',
        name: request.params.name,
        outcome: 'rejected',
        data: {
          tool: request.params.name,
          input: request.params.arguments ?? {},
          error: { code: 'UNKNOWN_TOOL' },
          source: 'mcp',
        },
      });
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `UNKNOWN_TOOL: no tool "${request.params.name}". Available: ${[...byName.keys()].join(', ')}.`,
          },
        ],
      };
    }
    const record = await invokeTool(tool, request.params.arguments ?? {}, {
      recorder,
      failOpen,
      source: 'mcp',
    });
    if (record.outcome === 'ok') {
      counts.ok += 1;
      const result = record.result;
      const structured =
        result && typeof result === 'object' && !Array.isArray(result)
          ? (result as Record<string, unknown>)
          : undefined;
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        ...(structured ? { structuredContent: structured } : {}),
      };
    }
    const error = record.error ?? { code: 'RESULT_FAILED', message: 'The tool reported failure.' };
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text: `${error.code}: ${error.message}${record.result !== undefined ? `\n${JSON.stringify(record.result)}` : ''}`,
        },
      ],
      // The SDK validates structured content against an output schema even on errors, so a
      // tool with one reports its error in the text only.
      ...(tool.outputSchema ? {} : { structuredContent: { ok: false, error } }),
    };
  });

  let ended = false;
  return {
    server,
    recorder,
    end: (reason = 'finished') => {
      if (ended) return;
      ended = true;
      const failed = counts.calls - counts.ok;
      recorder.append({
        kind: 'end',
        name: reason,
        outcome: reason,
        data: {
          reason,
          status: failed === 0 ? 'success' : 'partial',
          summary: `MCP session ${reason === 'finished' ? 'closed' : 'aborted'} after ${counts.calls} tool call${counts.calls === 1 ? '' : 's'}: ${counts.ok} succeeded, ${failed} failed or were rejected.`,
          counts: { modelCalls: 0, toolCalls: counts.calls, failures: failed },
        },
      });
    },
  };
}
