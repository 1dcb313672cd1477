import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool, type ToolOutcome } from '../../../core/tool.js';
import { fileEffect } from '../file-effects.js';
import { isBinary, MAX_READ_BYTES, type WorkspaceContext } from './workspace-context.js';

export function fsRead(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_read',
    description:
      'Read a text file in the project, optionally a line range (1-based, inclusive). Returns the content, total lines, bytes and sha256 of the whole file. Large files are truncated with a notice: read them in ranges.',
    inputSchema: z.object({
      path: z.string().describe('Path relative to the project root'),
      startLine: z.number().int().min(1).optional(),
      endLine: z.number().int().min(1).optional(),
    }),
    annotations: { readOnly: true, idempotent: true },
    target: (input) => input.path,
    ledgerView: (result) => {
      const { content, ...rest } = result as Record<string, unknown>;
      return { ...rest, contentChars: typeof content === 'string' ? content.length : 0 };
    },
    execute: async (input): Promise<ToolOutcome<Record<string, unknown>>> => {
      const resolved = await context.root.resolve(input.path);
      if (!resolved.exists)
        throw new ToolRejectedError(
          'FILE_NOT_FOUND',
          `No file at ${resolved.relative}. List the directory with fs_list or search with fs_glob.`,
          { path: resolved.relative },
        );
      let data: Buffer;
      try {
        data = readFileSync(resolved.absolute);
      } catch (error) {
        if ((error as { code?: string }).code === 'EISDIR')
          throw new ToolRejectedError(
            'IS_A_DIRECTORY',
            `${resolved.relative} is a directory: use fs_list or fs_tree.`,
          );
        throw error;
      }
      const sha256 = createHash('sha256').update(data).digest('hex');
      const base = { ok: true, path: resolved.relative, bytes: data.length, sha256 };
      if (isBinary(data))
        return { result: { ...base, binary: true, content: '', notice: 'Binary file: content not shown.' } };
      const text = data.toString('utf8');
      const lines = text.split(/\r?\n/);
      if (lines.at(-1) === '') lines.pop();
      const start = input.startLine ?? 1;
      const end = Math.min(input.endLine ?? lines.length, lines.length);
      if (start > Math.max(lines.length, 1) || (input.endLine !== undefined && input.endLine < start)) {
        throw new ToolRejectedError(
          'RANGE_INVALID',
          `Lines ${start}-${input.endLine ?? 'end'} are outside ${resolved.relative}, which has ${lines.length} lines.`,
        );
      }
      let content = lines.slice(start - 1, end).join('\n');
      let notice: string | undefined;
      if (Buffer.byteLength(content) > MAX_READ_BYTES) {
        const cut = Buffer.from(content)
          .subarray(0, MAX_READ_BYTES)
          .toString('utf8')
          .replace(/\uFFFD$/, '');
        const shownLines = cut.split('\n').length;
        content = cut;
        notice = `Truncated: showed ${MAX_READ_BYTES} bytes (lines ${start}-${start + shownLines - 1} of ${lines.length}). Read further with startLine=${start + shownLines - 1}.`;
      }
      return {
        result: {
          ...base,
          totalLines: lines.length,
          startLine: start,
          endLine: end,
          content,
          ...(notice ? { truncated: true, notice } : {}),
        },
        evidence: {
          effects: [fileEffect('read', resolved.relative, { bytes: data.length, sha256 })],
          via: `fs_read ${resolved.relative} sha256=${sha256.slice(0, 12)} (${data.length} bytes)`,
          sha256,
          bytes: data.length,
        },
      };
    },
  });
}
