import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool } from '../../../core/tool.js';
import { compilePattern } from '../search-files.js';
import { searchRunner } from '../search-in-worker.js';
import type { WorkspaceContext } from './workspace-context.js';

export function fsGrep(context: WorkspaceContext) {
  // This tool's searches reuse one worker (warm JIT, no start per call).
  const searchInWorker = searchRunner();
  return defineTool({
    name: 'fs_grep',
    description:
      'Search file contents in the project: a regular expression (or literal text), optionally only in files matching a glob (e.g. **/*.ts). Returns path, line and text of each match, capped with a notice. Honours .gitignore; skips FIFOs, sockets, devices and files over 32 MiB (listed in skipped). A search that runs too long (a catastrophic pattern) is stopped with SEARCH_TIMEOUT.',
    inputSchema: z.object({
      pattern: z.string().min(1),
      literal: z.boolean().default(false),
      caseInsensitive: z.boolean().default(false),
      glob: z.string().optional().describe('Only files matching this glob, relative to the search path'),
      path: z.string().default('.').describe('The folder to search, or one file'),
      maxResults: z.number().int().min(1).max(5000).default(200),
    }),
    annotations: { readOnly: true, idempotent: true },
    target: (input) => `${input.path}:${input.pattern}`,
    execute: async (input, tool) => {
      try {
        // Compiling never backtracks: an invalid pattern is refused here, before a worker starts.
        compilePattern(input.pattern, input.literal, input.caseInsensitive);
      } catch (error) {
        throw new ToolRejectedError(
          'PATTERN_INVALID',
          `Invalid regular expression /${input.pattern}/: ${(error as Error).message}. Pass literal: true to search for the text as-is.`,
        );
      }
      const resolved = await context.root.resolve(input.path);
      const found = await searchInWorker(
        {
          base: resolved.absolute,
          baseRelative: resolved.relative,
          pattern: input.pattern,
          literal: input.literal,
          caseInsensitive: input.caseInsensitive,
          ...(input.glob !== undefined ? { glob: input.glob } : {}),
          maxResults: input.maxResults,
          exclude: [...context.root.protectedLocations],
        },
        {
          ...(context.searchTimeoutMs !== undefined ? { timeoutMs: context.searchTimeoutMs } : {}),
          ...(tool?.signal ? { signal: tool.signal } : {}),
        },
      );
      return {
        result: {
          ok: true,
          matches: found.matches,
          count: found.count,
          filesSearched: found.filesSearched,
          ...(found.count > found.matches.length
            ? {
                truncated: true,
                notice: `Showing ${found.matches.length} of ${found.count} matches: narrow the pattern or the glob, or raise maxResults.`,
              }
            : {}),
          ...(found.skippedCount > 0
            ? {
                skipped: found.skipped,
                skippedCount: found.skippedCount,
                skippedNotice: `${found.skippedCount} file(s) not searched: FIFOs, sockets and devices cannot be read; larger files can be read in ranges with fs_read.`,
              }
            : {}),
        },
      };
    },
  });
}
