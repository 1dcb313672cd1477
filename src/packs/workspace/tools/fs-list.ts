import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool } from '../../../core/tool.js';
import type { WorkspaceContext } from './workspace-context.js';

export function fsList(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_list',
    description:
      'List one directory of the project: each entry with its type (file, directory, symlink) and size. Symlinks are shown, not followed.',
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
      const entries = dirents
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((dirent) => {
          const stats = lstatSync(join(resolved.absolute, dirent.name));
          const type = stats.isSymbolicLink()
            ? 'symlink'
            : stats.isDirectory()
              ? 'directory'
              : stats.isFile()
                ? 'file'
                : 'other';
          return { name: dirent.name, type, size: stats.size };
        });
      return { result: { ok: true, path: resolved.relative, entries } };
    },
  });
}
