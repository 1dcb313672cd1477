import { readFile } from 'node:fs/promises';
import picomatch from 'picomatch';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool } from '../../../core/tool.js';
import { walkFiles } from '../walk-files.js';
import { isBinary, type WorkspaceContext } from './workspace-context.js';

const CONCURRENCY = 64;

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
      const resolved = await context.root.resolve(input.path);
      const matchesGlob = input.glob
        ? picomatch(input.glob, { dot: true, basename: !input.glob.includes('/') })
        : undefined;
      const { entries } = await walkFiles(resolved.absolute, { gitignore: true });
      const files = entries.filter(
        (entry) => entry.type === 'file' && (!matchesGlob || matchesGlob(entry.relative)),
      );
      const matches: { path: string; line: number; text: string }[] = [];
      let total = 0;
      let next = 0;
      const prefix = resolved.relative === '.' ? '' : `${resolved.relative}/`;
      const worker = async () => {
        while (next < files.length) {
          const file = files[next++] as (typeof files)[number];
          const data = await readFile(file.absolute).catch((error: { code?: string }) => {
            if (error.code === 'ENOENT' || error.code === 'EACCES') return undefined;
            throw error;
          });
          if (!data || isBinary(data)) continue;
          const text = data.toString('utf8');
          if (!regex.test(text)) continue;
          const lines = text.split('\n');
          lines.forEach((line, index) => {
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
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
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
