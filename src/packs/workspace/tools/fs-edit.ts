import { closeSync, readFile, readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool } from '../../../core/tool.js';
import { writeFileAtomic } from '../atomic-write.js';
import { editDiff } from '../edit-diff.js';
import { fileEffect, priorStateOf } from '../file-effects.js';
import { evidenceVia, readBackEvidence } from '../file-evidence.js';
import { intendWrite } from '../file-intent.js';
import { openRegularFileSync } from '../open-regular-file.js';
import { SYNC_READ_BYTES } from '../read-file-window.js';
import type { WorkspaceContext } from './workspace-context.js';

/** An edit holds the file, its new text and a diff in memory: bound it. */
const MAX_EDIT_BYTES = 16 * 1024 * 1024;

/** The whole content of a regular file no larger than MAX_EDIT_BYTES, and its mode. */
async function readForEdit(absolute: string, relative: string): Promise<{ data: Buffer; mode: number }> {
  // Security: a FIFO or a device is refused before it is opened (it could block or never end).
  // No link followed; synchronous, as is the read of a small file (see SYNC_READ_BYTES).
  const { fd, stats } = openRegularFileSync(absolute, relative);
  try {
    if (stats.size > MAX_EDIT_BYTES)
      throw new ToolRejectedError(
        'FILE_TOO_LARGE',
        `${relative} has ${stats.size} bytes; fs_edit edits files up to ${MAX_EDIT_BYTES} bytes. Nothing was changed. Write a smaller file with fs_write instead.`,
        { path: relative, bytes: stats.size, limit: MAX_EDIT_BYTES },
      );
    const mode = stats.mode & 0o777;
    if (stats.size <= SYNC_READ_BYTES) return { data: readFileSync(fd), mode };
    const data = await new Promise<Buffer>((resolve, reject) =>
      readFile(fd, (error, read) => (error ? reject(error) : resolve(read))),
    );
    return { data, mode };
  } finally {
    closeSync(fd);
  }
}

const editInput = z
  .object({
    path: z.string(),
    startLine: z.number().int().min(1).optional().describe('Preferred: first line to replace (1-based)'),
    endLine: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Last line to replace, inclusive; startLine-1 inserts before startLine'),
    newText: z.string().optional().describe('Replacement for the line range'),
    oldString: z
      .string()
      .min(1)
      .optional()
      .describe('Exact text to replace (must match exactly once, or expectedReplacements times)'),
    newString: z.string().optional(),
    expectedReplacements: z.number().int().min(1).optional(),
  })
  .refine((input) => (input.startLine !== undefined) !== (input.oldString !== undefined), {
    message:
      'Give either startLine/endLine/newText (preferred) or oldString/newString, not both and not neither',
  });

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

function replaceRange(text: string, start: number, end: number, newText: string, path: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const trailing = text.endsWith('\n');
  const lines = text.split(/\r?\n/);
  if (trailing) lines.pop();
  if (start > lines.length + 1 || end > lines.length || end < start - 1) {
    throw new ToolRejectedError(
      'RANGE_INVALID',
      `Lines ${start}-${end} do not fit ${path}, which has ${lines.length} lines. Nothing was changed.`,
    );
  }
  const replacement = newText === '' ? [] : newText.replace(/\r?\n$/, '').split(/\r?\n/);
  lines.splice(start - 1, end - start + 1, ...replacement);
  return lines.join(eol) + (trailing || lines.length === 0 ? eol : '');
}

function replaceString(
  text: string,
  oldString: string,
  newString: string,
  expected: number,
  path: string,
): { text: string; count: number } {
  const positions: number[] = [];
  for (let at = text.indexOf(oldString); at !== -1; at = text.indexOf(oldString, at + oldString.length))
    positions.push(at);
  if (positions.length !== expected) {
    const lines = positions.map((position) => lineOf(text, position));
    // Nothing matched and too many matched need different fixes, so they get different codes.
    throw new ToolRejectedError(
      positions.length === 0 ? 'EDIT_NOT_FOUND' : 'EDIT_AMBIGUOUS',
      positions.length === 0
        ? `oldString was not found in ${path}. Nothing was changed. Read the file with fs_read and copy the text exactly.`
        : `oldString matches ${positions.length} times in ${path} (lines ${lines.join(', ')}), expected ${expected}. Nothing was changed. Use startLine/endLine, a longer oldString, or expectedReplacements: ${positions.length}.`,
      { matches: positions.length, lines },
    );
  }
  return { text: text.split(oldString).join(newString), count: positions.length };
}

export function fsEdit(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_edit',
    description:
      'Edit a text file: replace a line range (preferred; never fails on duplicate text) or an exact oldString. On an ambiguous oldString nothing changes and the matching lines are reported. Returns replacements, bytes and sha256 read back from disk, and a unified diff.',
    inputSchema: editInput,
    annotations: { destructive: true },
    target: (input) => input.path,
    execute: async (input, call) => {
      const resolved = await context.root.resolve(input.path);
      if (!resolved.exists)
        throw new ToolRejectedError(
          'FILE_NOT_FOUND',
          `No file at ${resolved.relative}: create it with fs_write.`,
        );
      const { data: original, mode } = await readForEdit(resolved.absolute, resolved.relative);
      const before = original.toString('utf8');
      let after: string;
      let replacements = 1;
      if (input.startLine !== undefined) {
        after = replaceRange(
          before,
          input.startLine,
          input.endLine ?? input.startLine,
          input.newText ?? '',
          resolved.relative,
        );
      } else {
        const replaced = replaceString(
          before,
          input.oldString as string,
          input.newString ?? '',
          input.expectedReplacements ?? 1,
          resolved.relative,
        );
        after = replaced.text;
        replacements = replaced.count;
      }
      // Encoded once: hashed for the intent and written from the same bytes.
      const data = Buffer.from(after, 'utf8');
      await writeFileAtomic(
        context.root,
        resolved,
        data,
        context.writeHooks,
        intendWrite(call, resolved.relative, data),
        // The file was just opened and fstat-ed as a regular file: its mode is kept.
        { mode },
      );
      const evidence = await readBackEvidence(resolved.absolute, resolved.relative);
      const diff = editDiff(`a/${resolved.relative}`, `b/${resolved.relative}`, before, after);
      return {
        result: { ok: true, path: resolved.relative, replacements, ...evidence, diff },
        evidence: {
          effects: [fileEffect('updated', resolved.relative, evidence, {}, priorStateOf(original))],
          via: evidenceVia('fs_edit', resolved.relative, evidence),
          ...evidence,
        },
      };
    },
  });
}
