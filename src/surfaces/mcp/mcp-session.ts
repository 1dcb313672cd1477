import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolResult,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createFailOpen } from '../../core/fail-open.js';
import { unresolvedIntents, unresolvedIntentWords } from '../../core/intents.js';
import { invokeTool } from '../../core/invoke-tool.js';
import type { Ledger, RunRecorder } from '../../core/ledger/ledger.js';
import type { ToolDefinition } from '../../core/tool.js';
import type { ProjectRoot } from '../../packs/workspace/project-root.js';
import { packageVersion } from '../cli/package-version.js';
import { capToolResult, DEFAULT_MAX_RESULT_BYTES } from './cap-tool-result.js';
import {
  type AskRoots,
  createClientRoots,
  DEFAULT_ROOTS_TIMEOUT_MS,
  RootsAnswerSchema,
} from './client-roots.js';
import { toMcpTool } from './to-mcp-tool.js';

export interface McpSessionOptions {
  tools: ToolDefinition[];
  ledger: Ledger;
  failOpenLog: string;
  /** When set, client roots may narrow access inside it (never widen). */
  projectRoot?: ProjectRoot;
  transport: 'stdio' | 'http';
  meta?: Record<string, unknown>;
  /** Serialized results above this are cut with a notice (the SDK client drops a >10 MB line). */
  maxResultBytes?: number;
  /** Releases what the pack opened for this session (a records index). */
  close?: () => void;
  /**
   * Values the packs know are secret (the http pack's recipe fields, `--header` values, the
   * session's cookies and CSRF token, capture auth headers): the session's run scrubs them
   * wherever they reappear, as `tally fish` does.
   */
  knownSecrets?: string[];
  /** How long the client may take to answer `roots/list` before the tools go on without it. */
  rootsTimeoutMs?: number;
  /** Where the session says what the client's roots did (default: stderr, `tally mcp: …`). */
  log?: (line: string) => void;
}

/** Builds a session's tools; called once per session, so a client's roots narrow only its own root. */
export type McpPackFactory = () => Promise<{
  tools: ToolDefinition[];
  projectRoot?: ProjectRoot;
  close?: () => void;
  /** Registered with the session's run (see McpSessionOptions.knownSecrets). */
  knownSecrets?: string[];
}>;

export interface McpServeOptions {
  ledger: Ledger;
  failOpenLog: string;
  build: McpPackFactory;
  meta?: Record<string, unknown>;
  maxResultBytes?: number;
  rootsTimeoutMs?: number;
  log?: (line: string) => void;
}

/** Why a session ended: the client closed it, or the server ended it (`why` says how). */
export interface McpSessionEnding {
  reason: 'finished' | 'aborted';
  /** For `aborted`: "the server was stopped (SIGTERM)", "idle for 600 s", "transport error: …". */
  why?: string;
  /** A transport failure lost the session's last request: never recorded as a success. */
  transportError?: boolean;
}

export interface McpSession {
  server: Server;
  /** Starts the session's ledger run; idempotent. HTTP calls it only once initialize succeeded. */
  begin: () => RunRecorder;
  /** Whether the ledger run was started. */
  readonly begun: boolean;
  /** Records a call refused before it reached a tool (an oversized request). */
  recordRefusal: (name: string, code: string, data: Record<string, unknown>) => void;
  /**
   * Writes the run's end entry (once; the first ending asked for wins) and releases the pack's
   * resources. With calls still running it waits for them (at most SESSION_END_SETTLE_MS; close
   * the transport to abort them), so their entries come before the end entry: await it before
   * closing the ledger. With none, the entry is written before it returns.
   */
  end: (ending?: McpSessionEnding) => Promise<void>;
}

/**
 * `tools/call` as it arrives, before any check of its params: the SDK's own schema would answer
 * a malformed call (arguments that are a string, an array, a number or null; no tool name) with a
 * raw JSON-RPC error that names no reason code and leaves no entry. Ours answers it as a tool
 * error (INVALID_INPUT) and records it like any other invalid input.
 */
const LooseCallToolRequestSchema = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/** A tools/call's params, read without trusting them. */
function readCallParams(params: unknown): { name?: string; arguments: unknown; rawName?: unknown } {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return { arguments: undefined };
  const { name, arguments: args } = params as Record<string, unknown>;
  return typeof name === 'string' && name !== ''
    ? { name, arguments: args }
    : { arguments: args, rawName: name };
}

/** How long a session's end waits for its aborted calls to write their entries. */
export const SESSION_END_SETTLE_MS = 5000;

/** Resolves once every promise settled, or after `ms`, whichever is first. Never rejects. */
function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([Promise.allSettled(promises).then(() => undefined), limit]).finally(() =>
    clearTimeout(timer),
  );
}

/**
 * One MCP session = one run in the ledger. Every call goes through invokeTool, so it is
 * validated, classified and recorded exactly like an agent's; errors come back as tool
 * errors carrying their reason code.
 */
export function createMcpSession(options: McpSessionOptions): McpSession {
  const server = new Server(
    // The installed package's version, as `tally --version` prints it, so clients see which Tally serves them.
    { name: 'tally', version: packageVersion() },
    {
      capabilities: { tools: {} },
      instructions:
        'Project-scoped tools whose results carry evidence (bytes and sha256 read back from disk).',
    },
  );
  // A run starts only for a session that really exists: a refused initialize leaves no run.
  let started: RunRecorder | undefined;
  const begin = (): RunRecorder => {
    started ??= options.ledger.startRun({
      agent: 'mcp',
      task: `MCP session over ${options.transport}`,
      meta: { transport: options.transport, tools: options.tools.map((tool) => tool.name), ...options.meta },
      ...(options.knownSecrets ? { knownSecrets: options.knownSecrets } : {}),
    });
    return started;
  };
  const failOpen = createFailOpen({
    logPath: options.failOpenLog,
    onRecord: (line) =>
      begin().append({ kind: 'fail_open', name: line.component, outcome: line.why, data: { ...line } }),
  });
  const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const listed = options.tools.map(toMcpTool);
  const counts = { calls: 0, ok: 0 };

  const clientRoots = options.projectRoot
    ? createClientRoots({
        projectRoot: options.projectRoot,
        timeoutMs: options.rootsTimeoutMs ?? DEFAULT_ROOTS_TIMEOUT_MS,
        failOpen,
        log: options.log ?? ((line) => process.stderr.write(`tally mcp: ${line}\n`)),
      })
    : undefined;
  const wantsRoots = () => clientRoots !== undefined && server.getClientCapabilities()?.roots !== undefined;
  // A request of its own, outside any client request: only stdio is sure to deliver it (over
  // HTTP it needs the client's GET stream, which a client may open late or never).
  const askUnprompted: AskRoots = (timeout) =>
    server.request({ method: 'roots/list' }, RootsAnswerSchema, { timeout });
  server.oninitialized = () => {
    if (options.transport === 'stdio' && wantsRoots()) void clientRoots?.refresh(askUnprompted);
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    clientRoots?.invalidate();
    if (options.transport === 'stdio' && wantsRoots()) void clientRoots?.refresh(askUnprompted);
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  // Calls still running: the run's end entry waits for them (see `end`), so none lands after it.
  const inFlight = new Set<Promise<CallToolResult>>();
  let ending: Promise<void> | undefined;
  // Registered on the Protocol itself: the Server's own registration validates the request with
  // the SDK's schema first, so a malformed call never reached us (see LooseCallToolRequestSchema).
  Protocol.prototype.setRequestHandler.call(server, LooseCallToolRequestSchema, (request, extra) => {
    // A call that comes once the session is ending would run past its end entry: refused, unrun.
    if (ending)
      return {
        isError: true,
        content: [{ type: 'text', text: 'SESSION_ENDED: the session is ending; nothing was run.' }],
      };
    const call = answerCall(request.params, extra);
    inFlight.add(call);
    const settled = () => inFlight.delete(call);
    call.then(settled, settled);
    return call;
  });
  /** A call whose params are not a tools/call's (no tool name): refused, recorded, never run. */
  const refuseNamelessCall = (rawName: unknown, input: unknown): CallToolResult => {
    const got =
      rawName === undefined
        ? 'no tool name'
        : `a tool name that is not a non-empty string (${JSON.stringify(rawName) ?? String(rawName)})`;
    const message = `Invalid tools/call request: it has ${got}. Send params {"name": "<tool>", "arguments": {…}}, with one of: ${[...byName.keys()].join(', ')}.`;
    counts.calls += 1;
    begin().append({
      kind: 'tool_call',
      name: 'unknown',
      outcome: 'rejected',
      data: {
        tool: 'unknown',
        input: input ?? {},
        ...(rawName !== undefined ? { name: rawName } : {}),
        error: { code: 'INVALID_INPUT', message },
        source: 'mcp',
      },
    });
    return {
      isError: true,
      content: [{ type: 'text', text: `INVALID_INPUT: ${message}` }],
      structuredContent: { ok: false, error: { code: 'INVALID_INPUT', message } },
    };
  };
  const answerCall = async (
    params: unknown,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): Promise<CallToolResult> => {
    const read = readCallParams(params);
    if (read.name === undefined) return refuseNamelessCall(read.rawName, read.arguments);
    // Arguments that are not an object (a string, an array, a number, null) reach the tool's
    // input schema as they are: it refuses them as INVALID_INPUT, recorded like any invalid input.
    const request = { params: { name: read.name, arguments: read.arguments } };
    // Asked on the call's own response stream, which every transport delivers; bounded by the
    // roots deadline and never failing the call.
    if (wantsRoots())
      await clientRoots?.ready((timeout) =>
        extra.sendRequest({ method: 'roots/list' }, RootsAnswerSchema, { timeout }),
      );
    const recorder = begin();
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
    const args = request.params.arguments;
    const record = await invokeTool(tool, args === undefined ? {} : args, {
      recorder,
      failOpen,
      // Aborted by the SDK when the client cancels the call (notifications/cancelled): the
      // tool stops, and its entry says so, rather than running on unseen.
      signal: extra.signal,
      source: 'mcp',
    });
    // The client (or the user running `tally runs show` beside it) may read the ledger as
    // soon as it has the result: the call's entry is committed before the answer goes out.
    // Under another process's write lock the answer waits (bounded); past that, the call is
    // not acknowledged as done: its entry is still queued, not yet evidence.
    if (!(await options.ledger.commit())) {
      // A change that could not record its intent was never made: say that, not "it ran".
      if (record.error?.code === 'LEDGER_BUSY')
        return { isError: true, content: [{ type: 'text', text: `LEDGER_BUSY: ${record.error.message}` }] };
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `LEDGER_BUSY: ${request.params.name} ran${record.outcome === 'ok' ? '' : ` (${record.outcome})`}, but its ledger entry could not be committed: another process holds the ledger's write lock (${options.ledger.path}). The entry is kept in memory and written when the lock frees; do not treat this call as recorded until then, and stop the other writer or use another --ledger.`,
          },
        ],
      };
    }
    if (record.outcome === 'ok') {
      counts.ok += 1;
      // The text and the structured copy both carry the result, so each gets half the cap.
      const { value: result, text, notice } = capToolResult(record.result, maxResultBytes / 2);
      const structured =
        result && typeof result === 'object' && !Array.isArray(result)
          ? (result as Record<string, unknown>)
          : undefined;
      return {
        content: [{ type: 'text', text }, ...(notice ? [{ type: 'text' as const, text: notice }] : [])],
        ...(structured ? { structuredContent: structured } : {}),
      };
    }
    const error = record.error ?? { code: 'RESULT_FAILED', message: 'The tool reported failure.' };
    const detail = record.result === undefined ? undefined : capToolResult(record.result, maxResultBytes / 2);
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text: `${error.code}: ${error.message}${detail ? `\n${detail.text}` : ''}`,
        },
        ...(detail?.notice ? [{ type: 'text' as const, text: detail.notice }] : []),
      ],
      // The SDK validates structured content against an output schema even on errors, so a
      // tool with one reports its error in the text only.
      ...(tool.outputSchema ? {} : { structuredContent: { ok: false, error } }),
    };
  };

  const writeEnd = (ending: McpSessionEnding) => {
    options.close?.();
    if (!started) return;
    const { reason, why, transportError } = ending;
    const failed = counts.calls - counts.ok;
    // A change declared and never answered (a call abandoned at its deadline that went on):
    // the session cannot be a clean success, whatever the answers said.
    const unresolved = unresolvedIntents(started.entries());
    // A session lost to a transport error dropped a request: never recorded as a clean success.
    const status =
      failed === 0 && !transportError && unresolved.length === 0
        ? 'success'
        : counts.ok > 0
          ? 'partial'
          : 'failed';
    const how = reason === 'finished' ? 'closed' : `aborted — ${why ?? 'the server ended it'} —`;
    started.append({
      kind: 'end',
      name: reason,
      outcome: reason,
      data: {
        reason,
        status,
        summary: `MCP session ${how} after ${counts.calls} tool call${counts.calls === 1 ? '' : 's'}: ${counts.ok} succeeded, ${failed} failed or were rejected.`,
        ...(why ? { why } : {}),
        // `tally verify` recomputes the status from the entries: this is the one input they lack.
        ...(transportError ? { transportError: true } : {}),
        ...(unresolved.length ? { unmet: unresolved.map(unresolvedIntentWords) } : {}),
        counts: { modelCalls: 0, toolCalls: counts.calls, failures: failed },
      },
    });
  };
  return {
    server,
    begin,
    get begun() {
      return started !== undefined;
    },
    recordRefusal: (name, code, data) => {
      counts.calls += 1;
      begin().append({
        kind: 'tool_call',
        name,
        outcome: 'rejected',
        data: { tool: name, error: { code }, source: 'mcp', ...data },
      });
    },
    end: (requested = { reason: 'finished' }) => {
      // The first ending wins: a transport closed by the server's own stop is not a client's close.
      if (ending) return ending;
      if (inFlight.size === 0) {
        writeEnd(requested);
        ending = Promise.resolve();
        return ending;
      }
      // Calls still running are aborted as the transport closes; their entries (saying so) go
      // before the end entry, and the pack's resources are released only once they are done.
      ending = settleWithin([...inFlight], SESSION_END_SETTLE_MS).then(() => writeEnd(requested));
      return ending;
    },
  };
}
