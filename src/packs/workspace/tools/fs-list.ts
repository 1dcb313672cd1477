import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { isTallyTempName } from '../../../core/io/temp-files.js';
import { defineTool } from '../../../core/tool.js';
import { fileKind } from '../file-kind.js';
import { isInside } from '../project-root.js';
import type { WorkspaceContext } from './workspace-context.js';

export function fsList(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_list',
    description:
      'List one directory of the project: each entry with its type (file, directory, symlink; fifo, socket or device for special files, which cannot be read) and size. Symlinks are shown, not followed.',
    inputSchema: z.object({
      path: z.string().default('.').describe('Directory relative to the project root'),
    }),
    annotations: { readOnly: true, idempotent: true },
    target: (input) => input.path,
    execute: async (input) => {
      const resolved = await context.root.resolve(input.path);
      let dirents: Dirent[];
      try {
        dirents = readdirSync(resolved.absolute, { withFileTypes: true });
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOENT')
          throw new ToolRejectedError('FILE_NOT_FOUND', `No directory at ${resolved.relative}.`);
        if (code === 'ENOTDIR')
          throw new ToolRejectedError(
            'NOT_A_DIRECTORY',
            `${resolved.relative} is a file: read it with fs_read.`,
          );
        throw error;
      }
      // Only a folder with a protected path inside it needs each entry checked (one
      // path.relative per entry, the costliest step of a listing otherwise).
      const mayHide = context.root.protectedLocations.some((path) => isInside(resolved.absolute, path));
      const entries = dirents
        // A protected entry (Tally's `.tally/`, the ledger's files) is left out by the same rule
        // that refuses it, as fs_tree, fs_glob and fs_grep do.
        .filter(
          (dirent) =>
            !isTallyTempName(dirent.name) &&
            !(mayHide && context.root.isProtected(join(resolved.absolute, dirent.name))),
        )
        .sort((a, b) => a.name.localeCompare(b.name))
        .flatMap((dirent) => {
          let stats: ReturnType<typeof lstatSync>;
          try {
            // lstat never opens the entry: a FIFO or a device is described, not touched.
            stats = lstatSync(join(resolved.absolute, dirent.name));
          } catch (error) {
            // Removed between the readdir and the lstat: it is no longer there to list.
            if ((error as { code?: string }).code === 'ENOENT') return [];
            throw error;
          }
          const type = fileKind(stats);
          return [{ name: dirent.name, type, size: stats.size }];
        });
      return { result: { ok: true, path: resolved.relative, entries } };
    },
  });
}
