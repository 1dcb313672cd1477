import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import picomatch from 'picomatch';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool } from '../../../core/tool.js';
import { walkFiles } from '../walk-files.js';
import { isBinary, type WorkspaceContext } from './workspace-context.js';

const CHUNK_FILES = 400;
const SMALL_FILE = 1024 * 1024;

function compile(pattern: string, literal: boolean, caseInsensitive: boolean): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : pattern;
  try {
    return new RegExp(source, caseInsensitive ? 'i' : '');
  } catch (error) {
    throw new ToolRejectedError(
      'PATTERN_INVALID',
      `Invalid regular expression /${pattern}/: ${(error as Error).message}. Pass literal: true to search for the text as-is.`,
    );
  }
}

/** Reads a file into a reused buffer (one open, one read, one close), or undefined if it vanished. */
function readSmall(path: string, scratch: Buffer): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'EACCES')
      return undefined;
    throw error;
  }
  try {
    const length = readSync(fd, scratch, 0, scratch.length, 0);
    return length < scratch.length ? scratch.subarray(0, length) : readFileSync(path);
  } finally {
    closeSync(fd);
  }
}

export function fsGrep(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_grep',
    description:
      'Search file contents in the project: a regular expression (or literal text), optionally only in files matching a glob (e.g. **/*.ts). Returns path, line and text of each match, capped with a notice. Honours .gitignore.',
    inputSchema: z.object({
      pattern: z.string().min(1),
      literal: z.boolean().default(false),
      caseInsensitive: z.boolean().default(false),
      glob: z.string().optional().describe('Only files matching this glob, relative to the search path'),
      path: z.string().default('.'),
      maxResults: z.number().int().min(1).max(5000).default(200),
    }),
    annotations: { readOnly: true, idempotent: true },
    target: (input) => `${input.path}:${input.pattern}`,
    execute: async (input) => {
      const regex = compile(input.pattern, input.literal, input.caseInsensitive);
      // A plain needle can be found in the raw bytes before any decoding.
      const needle =
        !input.caseInsensitive && (input.literal || !/[.*+?^${}()|[\]\\]/.test(input.pattern))
          ? Buffer.from(input.pattern)
          : undefined;
      const resolved = await context.root.resolve(input.path);
      const matchesGlob = input.glob
        ? picomatch(input.glob, { dot: true, basename: !input.glob.includes('/') })
        : undefined;
      const files = walkFiles(resolved.absolute, { gitignore: true }).entries.filter(
        (entry) => entry.type === 'file' && (!matchesGlob || matchesGlob(entry.relative)),
      );
      const matches: { path: string; line: number; text: string }[] = [];
      const prefix = resolved.relative === '.' ? '' : `${resolved.relative}/`;
      const scratch = Buffer.allocUnsafe(SMALL_FILE);
      let total = 0;
      for (let start = 0; start < files.length; start += CHUNK_FILES) {
        // Synchronous reads beat the thread pool several times over; yield between chunks.
        if (start > 0) await new Promise((resolve) => setImmediate(resolve));
        for (const file of files.slice(start, start + CHUNK_FILES)) {
          const data = readSmall(file.absolute, scratch);
          if (!data || (needle && data.indexOf(needle) === -1) || isBinary(data)) continue;
          const text = data.toString('utf8');
          if (!regex.test(text)) continue;
          text.split('\n').forEach((line, index) => {
            if (!regex.test(line)) return;
            total += 1;
            if (matches.length < input.maxResults)
              matches.push({
                path: `${prefix}${file.relative}`,
                line: index + 1,
                text: line.replace(/\r$/, '').slice(0, 500),
              });
          });
        }
      }
      matches.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
      return {
        result: {
          ok: true,
          matches,
          count: total,
          filesSearched: files.length,
          ...(total > matches.length
            ? {
                truncated: true,
                notice: `Showing ${matches.length} of ${total} matches: narrow the pattern or the glob, or raise maxResults.`,
              }
            : {}),
        },
      };
    },
  });
}
