import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute } from 'node:path';

/**
 * How much of a transcript the Stop gate reads at most: the whole current turn, back to the
 * last user prompt, up to this size. A turn bigger than that is not released unread: the gate
 * asks for the review (fail closed), since it cannot tell what the turn did.
 */
export const TRANSCRIPT_TURN_MAX_BYTES = 64 * 1024 * 1024;

/** The backward read's step. */
const CHUNK_BYTES = 1024 * 1024;

export interface TurnToolUse {
  name: string;
  input: unknown;
  /** Its result says it ran in a forked sub-agent (a `context: fork` skill), whose calls are not here. */
  forked?: boolean;
}

export type TranscriptTurn =
  | {
      /**
       * Tool calls the assistant made since the last user prompt (or in the whole file) that
       * ran: a call whose result is an error (denied by a hook or a permission rule, or failed)
       * changed nothing and is left out.
       */
      toolUses: TurnToolUse[];
      /** False when the file holds no user prompt: every line was read as the turn. */
      sawPrompt: boolean;
    }
  /** The current turn is longer than the cap: what it did is unknown (the caller fails closed). */
  | { tooLarge: { maxBytes: number } }
  | { unreadable: string };

type Line = {
  type?: unknown;
  isMeta?: unknown;
  message?: { content?: unknown };
  toolUseResult?: { status?: unknown } | null;
};

/** What the results say about their calls, met before the calls (the file is read backwards). */
type Results = {
  /** Calls whose result came back as an error. */
  errored: Set<string>;
  /** Calls whose result says they ran forked, in a sub-agent of their own. */
  forked: Set<string>;
};

/**
 * A user entry that is a prompt typed by the user, not a tool result or an injected note — nor
 * the `<task-notification>` Claude Code sends when a background agent finishes: that continues
 * the same turn (as `turn-reset` holds), and the calls before it are still this turn's.
 */
function isPrompt(line: Line): boolean {
  if (line.type !== 'user' || line.isMeta === true) return false;
  const content = line.message?.content;
  if (typeof content === 'string') return !/^\s*<task-notification>/.test(content);
  return (
    Array.isArray(content) &&
    content.some((block) => (block as { type?: unknown })?.type === 'text') &&
    !content.some((block) => (block as { type?: unknown })?.type === 'tool_result')
  );
}

/**
 * The current turn as Claude Code's JSONL transcript shows it: the file read backwards in
 * 1 MiB steps, lines parsed one by one (a bad line is skipped), until the last user prompt —
 * the whole turn however long its lines, never only a tail (issue 19: a turn that wrote, then
 * read a 600 KiB file, pushed its write out of a 512 KiB tail). More than `maxBytes` without
 * reaching the prompt is `tooLarge`. The path comes from the payload: it must be absolute and
 * a regular file, opened without following a symlink.
 */
export function readTranscriptTurn(path: unknown, maxBytes = TRANSCRIPT_TURN_MAX_BYTES): TranscriptTurn {
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
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { unreadable: 'the transcript is not a regular file' };
    return walkBack(fd, stats.size, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/** Reads lines from the end of the file to its start, stopping at the last user prompt. */
function walkBack(fd: number, size: number, maxBytes: number): TranscriptTurn {
  const toolUses: TurnToolUse[] = [];
  const results: Results = { errored: new Set(), forked: new Set() };
  const done = () => ({ toolUses: toolUses.reverse(), sawPrompt: true });
  let position = size;
  let consumed = 0;
  // The end of a line whose start lies in an earlier chunk, nearest chunk first.
  let partial: Buffer[] = [];
  while (position > 0) {
    if (consumed >= maxBytes) return { tooLarge: { maxBytes } };
    const length = Math.min(CHUNK_BYTES, position, maxBytes - consumed);
    position -= length;
    const chunk = Buffer.alloc(length);
    const read = readSync(fd, chunk, 0, length, position);
    if (read < length) position = 0; // the file shrank under us: what was read is all there is
    consumed += length;
    let end = read;
    while (end > 0) {
      const newline = chunk.lastIndexOf(0x0a, end - 1);
      if (newline < 0) break;
      if (visit(Buffer.concat([chunk.subarray(newline + 1, end), ...partial]), toolUses, results))
        return done();
      partial = [];
      end = newline;
    }
    partial.unshift(chunk.subarray(0, end));
  }
  if (visit(Buffer.concat(partial), toolUses, results)) return done();
  return { toolUses: toolUses.reverse(), sawPrompt: false };
}

/** One line, newest first: true when it is the prompt that began the turn; tool uses are collected. */
function visit(bytes: Buffer, toolUses: TurnToolUse[], results: Results): boolean {
  const raw = bytes.toString('utf8').trim();
  if (!raw.startsWith('{')) return false;
  let line: Line;
  try {
    line = JSON.parse(raw) as Line;
  } catch (error) {
    if (error instanceof SyntaxError) return false;
    throw error;
  }
  if (typeof line !== 'object' || line === null) return false;
  if (isPrompt(line)) return true;
  const content = line.message?.content;
  if (!Array.isArray(content)) return false;
  if (line.type === 'user') {
    const forked = line.toolUseResult?.status === 'forked';
    for (const block of content) {
      const result = block as { type?: unknown; tool_use_id?: unknown; is_error?: unknown };
      if (result?.type !== 'tool_result' || typeof result.tool_use_id !== 'string') continue;
      if (result.is_error === true) results.errored.add(result.tool_use_id);
      if (forked) results.forked.add(result.tool_use_id);
    }
    return false;
  }
  if (line.type !== 'assistant') return false;
  for (const block of [...content].reverse()) {
    const use = block as { type?: unknown; id?: unknown; name?: unknown; input?: unknown };
    if (use?.type !== 'tool_use' || typeof use.name !== 'string' || results.errored.has(use.id as string))
      continue;
    toolUses.push({
      name: use.name,
      input: use.input,
      ...(results.forked.has(use.id as string) ? { forked: true } : {}),
    });
  }
  return false;
}
