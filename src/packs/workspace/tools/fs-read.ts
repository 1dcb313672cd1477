import { closeSync } from 'node:fs';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool, type ToolOutcome } from '../../../core/tool.js';
import { fileEffect } from '../file-effects.js';
import { openRegularFileSync } from '../open-regular-file.js';
import { readFileWindow } from '../read-file-window.js';
import { MAX_READ_BYTES, type WorkspaceContext } from './workspace-context.js';

/** The window keeps a few bytes past the limit so a cut never splits a UTF-8 character blindly. */
const WINDOW_SLACK = 8;

/** The window's text as the model sees it: CRLF shown as LF, no newline after the last line. */
function windowText(window: Buffer): string {
  return window.toString('utf8').replace(/\r\n/g, '\n').replace(/\n$/, '');
}

export function fsRead(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_read',
    description:
      'Read a text file in the project, optionally a line range (1-based, inclusive). Returns the content, total lines, whether the file ends with a newline, bytes and sha256 of the whole file. Large files are truncated with a notice: read them in ranges. FIFOs, sockets and devices are refused.',
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
    execute: async (input, tool): Promise<ToolOutcome<Record<string, unknown>>> => {
      const resolved = await context.root.resolve(input.path);
      const notFound = () =>
        new ToolRejectedError(
          'FILE_NOT_FOUND',
          `No file at ${resolved.relative}. List the directory with fs_list or search with fs_glob.`,
          { path: resolved.relative },
        );
      if (!resolved.exists) throw notFound();
      let opened: ReturnType<typeof openRegularFileSync>;
      try {
        // Security: a FIFO or a device is refused before it is opened (it could block or never
        // end); the open follows no link. Synchronous: three system calls, cheaper than three
        // thread-pool round trips.
        opened = openRegularFileSync(resolved.absolute, resolved.relative);
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') throw notFound();
        throw error;
      }
      const start = input.startLine ?? 1;
      let file: Awaited<ReturnType<typeof readFileWindow>>;
      try {
        file = await readFileWindow(opened.fd, opened.stats.size, {
          startLine: start,
          ...(input.endLine !== undefined ? { endLine: input.endLine } : {}),
          maxBytes: MAX_READ_BYTES + WINDOW_SLACK,
          // A getter: the call's signal is made only when a read goes through the thread pool.
          get signal() {
            return tool?.signal;
          },
        });
      } finally {
        closeSync(opened.fd);
      }
      const { bytes, sha256, totalLines, endsWithNewline } = file;
      const base = { ok: true, path: resolved.relative, bytes, sha256, endsWithNewline };
      const evidence = {
        effects: [fileEffect('read', resolved.relative, { bytes, sha256 })],
        via: `fs_read ${resolved.relative} sha256=${sha256.slice(0, 12)} (${bytes} bytes)`,
        sha256,
        bytes,
      };
      if (file.binary)
        return {
          result: { ...base, binary: true, content: '', notice: 'Binary file: content not shown.' },
          evidence,
        };
      const end = Math.min(input.endLine ?? totalLines, totalLines);
      if (start > Math.max(totalLines, 1) || (input.endLine !== undefined && input.endLine < start)) {
        throw new ToolRejectedError(
          'RANGE_INVALID',
          `Lines ${start}-${input.endLine ?? 'end'} are outside ${resolved.relative}, which has ${totalLines} lines.`,
          { totalLines },
        );
      }
      let content = windowText(file.window);
      let notice: string | undefined;
      if (file.windowCapped || Buffer.byteLength(content) > MAX_READ_BYTES) {
        const cut = Buffer.from(content)
          .subarray(0, MAX_READ_BYTES)
          .toString('utf8')
          .replace(/\uFFFD$/, '');
        const shownLines = cut.split('\n').length;
        content = cut;
        notice = `Truncated: showed ${MAX_READ_BYTES} bytes (lines ${start}-${start + shownLines - 1} of ${totalLines}). Read further with startLine=${start + shownLines - 1}.`;
      }
      return {
        result: {
          ...base,
          totalLines,
          startLine: start,
          endLine: end,
          content,
          ...(notice ? { truncated: true, notice } : {}),
        },
        evidence,
      };
    },
  });
}
