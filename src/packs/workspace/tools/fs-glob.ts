import { realpathSync } from 'node:fs';
import { basename, dirname, relative, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { isTallyTempName } from '../../../core/io/temp-files.js';
import { defineTool } from '../../../core/tool.js';
import { PathOutsideProjectError } from '../path-outside-project-error.js';
import type { WorkspaceContext } from './workspace-context.js';

const MAX_RESULTS = 1000;

export function fsGlob(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_glob',
    description:
      'Find files in the project by glob pattern (e.g. src/**/*.ts). Returns paths relative to the project root, capped with a notice.',
    inputSchema: z.object({
      pattern: z.string().min(1),
      path: z.string().default('.').describe('Directory to search from'),
    }),
    annotations: { readOnly: true, idempotent: true },
    target: (input) => `${input.path}:${input.pattern}`,
    execute: async (input) => {
      // Security: a pattern may not climb out of the directory it searches or name an absolute path.
      if (
        input.pattern.includes('\0') ||
        input.pattern.startsWith('/') ||
        /^[a-zA-Z]:/.test(input.pattern) ||
        input.pattern.split(/[\\/]/).includes('..')
      ) {
        throw new PathOutsideProjectError(input.pattern, input.pattern, 'glob-escape', context.root.realRoot);
      }
      const resolved = await context.root.resolve(input.path);
      const found = await glob(input.pattern, {
        cwd: resolved.absolute,
        absolute: true,
        dot: false,
        followSymbolicLinks: false,
        ignore: ['**/.git/**'],
      });
      // Security: `followSymbolicLinks: false` keeps the walk off links, but the pattern's fixed
      // part (`out/*`) is read as named, through a symlinked folder too. A result counts only when
      // its folder is where it says (no link on the way): nothing outside the root, nothing of a
      // protected path under another spelling, nothing outside the client's roots.
      const direct = new Map<string, boolean>();
      const reachedDirectly = (path: string): boolean => {
        const folder = dirname(path);
        let known = direct.get(folder);
        if (known === undefined) {
          try {
            known = realpathSync.native(folder) === folder;
          } catch {
            known = false;
          }
          direct.set(folder, known);
        }
        return known;
      };
      // Tally's in-flight or orphaned temporary files are never the project's (even with a `.*` pattern),
      // and what fs_read/fs_list refuse (the ledger under `.tally/`) is not listed either.
      const paths = found
        .filter(
          (path) =>
            !isTallyTempName(basename(path)) && reachedDirectly(path) && !context.root.isProtected(path),
        )
        .map((path) => relative(context.root.realRoot, path).split(sep).join('/'))
        .sort();
      return {
        result: {
          ok: true,
          paths: paths.slice(0, MAX_RESULTS),
          count: paths.length,
          ...(paths.length > MAX_RESULTS
            ? { truncated: true, notice: `Showing ${MAX_RESULTS} of ${paths.length}: narrow the pattern.` }
            : {}),
        },
      };
    },
  });
}
