import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute } from 'node:path';

/** How much of a transcript's end the Stop gate reads: a turn's tool calls, not a session's history. */
export const TRANSCRIPT_TAIL_BYTES = 512 * 1024;

export interface TurnToolUse {
  name: string;
  input: unknown;
}

export type TranscriptTurn =
  | {
      /** Tool calls the assistant made since the last user prompt (or in the whole tail). */
      toolUses: TurnToolUse[];
      /** False when the tail held no user prompt: the turn began before the window. */
      sawPrompt: boolean;
    }
  | { unreadable: string };

type Line = { type?: unknown; isMeta?: unknown; message?: { content?: unknown } };

/** A user entry that is a prompt typed by the user, not a tool result or an injected note. */
function isPrompt(line: Line): boolean {
  if (line.type !== 'user' || line.isMeta === true) return false;
  const content = line.message?.content;
  if (typeof content === 'string') return true;
  return (
    Array.isArray(content) &&
    content.some((block) => (block as { type?: unknown })?.type === 'text') &&
    !content.some((block) => (block as { type?: unknown })?.type === 'tool_result')
  );
}

/**
 * The current turn as Claude Code's JSONL transcript shows it: a bounded read of its tail
 * (never the whole file), lines parsed one by one (a bad line is skipped), walked back to the
 * last user prompt. The path comes from the payload: it must be absolute and a regular file,
 * opened without following a symlink.
 */
export function readTranscriptTurn(path: unknown, maxBytes = TRANSCRIPT_TAIL_BYTES): TranscriptTurn {
  if (typeof path !== 'string' || path === '' || path.includes('\0') || !isAbsolute(path))
    return { unreadable: 'the payload has no absolute transcript_path' };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return { unreadable: `transcript ${code}` };
    throw error;
  }
  let text: string;
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { unreadable: 'the transcript is not a regular file' };
    const length = Math.min(stats.size, maxBytes);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, stats.size - length);
    text = buffer.subarray(0, read).toString('utf8');
    // A window that starts mid-line: drop the partial first line.
    if (stats.size > length) text = text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
  const lines = text.split('\n');
  const toolUses: TurnToolUse[] = [];
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const raw = (lines[index] as string).trim();
    if (!raw.startsWith('{')) continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch (error) {
      if (error instanceof SyntaxError) continue;
      throw error;
    }
    if (typeof line !== 'object' || line === null) continue;
    if (isPrompt(line)) return { toolUses: toolUses.reverse(), sawPrompt: true };
    const content = line.type === 'assistant' ? line.message?.content : undefined;
    if (!Array.isArray(content)) continue;
    for (const block of [...content].reverse()) {
      const use = block as { type?: unknown; name?: unknown; input?: unknown };
      if (use?.type === 'tool_use' && typeof use.name === 'string')
        toolUses.push({ name: use.name, input: use.input });
    }
  }
  return { toolUses: toolUses.reverse(), sawPrompt: false };
}
