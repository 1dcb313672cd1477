import { classifyShellCommand } from './read-only-command.js';

export type ToolCallKind = { writes: false } | { writes: true; why: string };

// Claude Code's own tools that only read, plan or delegate. `Skill` and `Task`/`Agent` must pass:
// they are how the scout runs. A sub-agent's own calls meet the gate again.
const READ_ONLY_TOOLS = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'TodoRead',
  'Skill',
  'SlashCommand',
  'Task',
  'Agent',
  'TaskOutput',
  'BashOutput',
  'KillShell',
  'KillBash',
  'AskUserQuestion',
  'ExitPlanMode',
  'EnterPlanMode',
  'ToolSearch',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
]);

// Tally's own MCP tools that only read (served as `mcp__<server>__<tool>`).
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

/**
 * Whether a Claude Code tool call can change something. Fail-closed: a tool this list does not
 * know (a new built-in, another MCP server's tool) counts as writing; `Bash` reads only when
 * `classifyShellCommand` proves it.
 */
export function classifyToolCall(toolName: unknown, toolInput: unknown): ToolCallKind {
  if (typeof toolName !== 'string' || toolName === '')
    return { writes: true, why: 'the payload names no tool' };
  if (READ_ONLY_TOOLS.has(toolName)) return { writes: false };
  const mcp = /^mcp__.+__([^_].*)$/.exec(toolName);
  if (mcp && READ_ONLY_MCP_TOOLS.has(mcp[1] as string)) return { writes: false };
  if (toolName === 'Bash') {
    const command =
      toolInput && typeof toolInput === 'object' ? (toolInput as { command?: unknown }).command : undefined;
    const verdict = classifyShellCommand(command);
    return verdict.readOnly ? { writes: false } : { writes: true, why: `Bash: ${verdict.why}` };
  }
  if (['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(toolName))
    return { writes: true, why: `${toolName} writes files` };
  return { writes: true, why: `${toolName.slice(0, 80)} is not known to be read-only` };
}
