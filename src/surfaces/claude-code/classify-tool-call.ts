import { classifyShellCommand } from './read-only-command.js';
import { PLUGIN_NAME } from './resolve-skill.js';

export type ToolCallKind = { writes: false } | { writes: true; why: string };

/**
 * Claude Code's own tools trusted as read-only BY NAME. Everything else defaults to writing
 * (fail-closed), including built-ins this list does not know yet. Decisions, tool by tool:
 * - `Skill`, `Task`/`Agent` pass: they are how the scout runs; a sub-agent's own calls meet the
 *   gate again, and a skill's shell commands go through `Bash` like any other.
 * - `TodoWrite` writes only Claude Code's own to-do list (session state, not the project).
 * - `WebSearch` sends a query to Claude Code's search provider and reads results.
 * - NOT trusted: `WebFetch` (a request to any URL the model chooses: it can carry project data
 *   out in the URL and trigger GET endpoints that change things — the same off-origin concern
 *   Tally's HTTP pack refuses, so it counts as writing, though it writes nothing locally);
 *   `SlashCommand` (a custom command can run shell lines and any tool); `KillShell`/`KillBash`
 *   (ends a running process: a change to the world, if not to files).
 */
const READ_ONLY_TOOLS = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'WebSearch',
  'TodoWrite',
  'TodoRead',
  'Skill',
  'Task',
  'Agent',
  'TaskOutput',
  'BashOutput',
  'AskUserQuestion',
  'ExitPlanMode',
  'EnterPlanMode',
  'ToolSearch',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
]);

/**
 * The MCP server name the trust is bound to: Tally's own server as the README registers it
 * (`claude mcp add tally -- tally mcp …`), so its tools arrive as `mcp__tally__<tool>`. The same
 * tool name from another server (`mcp__github__lookup`) is that server's tool and is not trusted;
 * a Tally server registered under another name is not trusted either (fail-closed).
 */
export const TALLY_MCP_PREFIX = 'mcp__tally__';

// Tally's own MCP tools that only read.
const READ_ONLY_MCP_TOOLS = new Set([
  'records_query',
  'records_cat',
  'records_recall',
  'fs_read',
  'fs_list',
  'fs_tree',
  'fs_glob',
  'fs_grep',
  'get_endpoint_spec',
  'lookup',
]);

const FILE_WRITERS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/**
 * Whether a Claude Code tool call can change something; the one classifier both gates use (the
 * how-do-i PreToolUse gate, and the am-i-done Stop gate's count of calls that changed things).
 * Fail-closed: a tool this list does not know counts as writing; `Bash` reads only when
 * `classifyShellCommand` proves it (`launchers`: the plugin's own `bin/tally.js`, run as `tally`).
 */
export function classifyToolCall(
  toolName: unknown,
  toolInput: unknown,
  launchers: readonly string[] = [],
): ToolCallKind {
  if (typeof toolName !== 'string' || toolName === '')
    return { writes: true, why: 'the payload names no tool' };
  if (READ_ONLY_TOOLS.has(toolName)) return { writes: false };
  if (
    toolName.startsWith(TALLY_MCP_PREFIX) &&
    READ_ONLY_MCP_TOOLS.has(toolName.slice(TALLY_MCP_PREFIX.length))
  )
    return { writes: false };
  if (toolName === 'Bash') {
    const command =
      toolInput && typeof toolInput === 'object' ? (toolInput as { command?: unknown }).command : undefined;
    const verdict = classifyShellCommand(command, launchers);
    return verdict.readOnly ? { writes: false } : { writes: true, why: `Bash: ${verdict.why}` };
  }
  if (FILE_WRITERS.has(toolName)) return { writes: true, why: `${toolName} writes files` };
  return { writes: true, why: `${toolName.slice(0, 80)} is not known to be read-only` };
}

/** The scout, however it is spawned: it only reads records (and writes its own run to the ledger). */
const SCOUT_AGENTS = new Set([`${PLUGIN_NAME}:scout`, 'scout']);
const SCOUT_SKILLS = new Set([`${PLUGIN_NAME}:how-do-i`, 'how-do-i']);

/** A call as a turn's transcript shows it, with what its result said (`transcript-turn.ts`). */
export interface TranscriptCall {
  name: string;
  input: unknown;
  forked?: boolean;
}

/**
 * Whether a call in a finished turn may have changed something — the am-i-done Stop gate's
 * question. A call that writes (`classifyToolCall`), and also one that handed the work to
 * another agent: an Agent/Task call, or a Skill that ran forked. That agent's own calls are in a
 * transcript of its own, not the turn's, so what it did cannot be told from here; the gate
 * cannot tell a sub-agent that wrote from one that read, and counts both (fail-closed). The
 * scout is the exception the gates are built around. (The how-do-i PreToolUse gate lets these
 * calls pass: there a sub-agent's calls meet the gate again, one by one.)
 */
export function turnCallChanges(call: TranscriptCall, launchers: readonly string[] = []): ToolCallKind {
  const input = (call.input && typeof call.input === 'object' ? call.input : {}) as Record<string, unknown>;
  if (call.name === 'Agent' || call.name === 'Task') {
    const type = typeof input.subagent_type === 'string' ? input.subagent_type : 'general-purpose';
    return SCOUT_AGENTS.has(type)
      ? { writes: false }
      : {
          writes: true,
          why: `${call.name} ${type.slice(0, 60)} ran a sub-agent whose calls are not in this transcript`,
        };
  }
  if (call.name === 'Skill' && call.forked === true) {
    const skill = typeof input.skill === 'string' ? input.skill.trim().replace(/^\//, '') : '';
    return SCOUT_SKILLS.has(skill)
      ? { writes: false }
      : {
          writes: true,
          why: `Skill ${skill.slice(0, 60)} ran forked, in a sub-agent whose calls are not in this transcript`,
        };
  }
  return classifyToolCall(call.name, call.input, launchers);
}
