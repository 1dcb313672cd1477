import { lstat, rm } from 'node:fs/promises';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool } from '../../../core/tool.js';
import { fileEffect, filesUnder, priorState } from '../file-effects.js';
import { intendFileChange } from '../file-intent.js';
import { PathOutsideProjectError } from '../path-outside-project-error.js';
import type { WorkspaceContext } from './workspace-context.js';

export function fsDelete(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_delete',
    description:
      'Delete a file (or a symlink itself) in the project; a directory only with recursive: true. The project root itself can never be deleted.',
    inputSchema: z.object({ path: z.string(), recursive: z.boolean().default(false) }),
    annotations: { destructive: true },
    target: (input) => input.path,
    execute: async (input, call) => {
      const resolved = await context.root.resolveEntry(input.path);
      if (resolved.relative === '.')
        throw new PathOutsideProjectError(
          input.path,
          resolved.absolute,
          'project-root',
          context.root.realRoot,
        );
      if (!resolved.exists)
        throw new ToolRejectedError('FILE_NOT_FOUND', `Nothing at ${resolved.relative} to delete.`);
      const stats = await lstat(resolved.entry);
      if (stats.isDirectory() && !input.recursive) {
        throw new ToolRejectedError(
          'IS_A_DIRECTORY',
          `${resolved.relative} is a directory: pass recursive: true to delete it and everything in it.`,
        );
      }
      const inside = stats.isDirectory() ? filesUnder(context.root, resolved.entryRelative) : [];
      // A file's content before it goes (a delete then a rewrite with the same bytes is no change;
      // a delete then a create elsewhere with them is a move). Files inside a directory are not hashed.
      const before = stats.isFile() ? await priorState(resolved.entry) : undefined;
      await intendFileChange(call, 'delete', [resolved.entryRelative]);
      await rm(resolved.entry, { recursive: input.recursive, force: false });
      await context.writeHooks?.afterChange?.();
      return {
        result: {
          ok: true,
          path: resolved.entryRelative,
          deleted: stats.isDirectory() ? 'directory' : 'file',
        },
        evidence: {
          effects: [
            fileEffect('deleted', resolved.entryRelative, undefined, {}, before),
            ...inside.map((path) => fileEffect('deleted', path)),
          ],
          via: `fs_delete ${resolved.entryRelative}`,
        },
      };
    },
  });
}
