import { z } from 'zod';
import { defineTool } from '../../../core/tool.js';
import { type WalkEntry, walkFiles } from '../walk-files.js';
import type { WorkspaceContext } from './workspace-context.js';

const MAX_ENTRIES = 2000;

/** A FIFO, socket or device is marked so the model does not try to read it. */
const TYPE_MARK: Record<WalkEntry['type'], string> = {
  file: '',
  directory: '/',
  symlink: ' ->',
  other: ' (special file: not readable)',
};

export function fsTree(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_tree',
    description:
      'Show the project layout as an indented tree, depth-limited, honouring .gitignore and skipping .git. Use it once to orient yourself.',
    inputSchema: z.object({
      path: z.string().default('.'),
      depth: z.number().int().min(1).max(20).default(3),
    }),
    annotations: { readOnly: true, idempotent: true },
    target: (input) => input.path,
    execute: async (input) => {
      const resolved = await context.root.resolve(input.path);
      const { entries, truncated } = walkFiles(resolved.absolute, {
        gitignore: true,
        maxDepth: input.depth,
        limit: MAX_ENTRIES,
        exclude: context.root.protectedLocations,
      });
      entries.sort((a, b) => a.relative.localeCompare(b.relative));
      const tree = entries
        .map(
          (entry) =>
            `${'  '.repeat(entry.depth - 1)}${entry.relative.split('/').at(-1)}${TYPE_MARK[entry.type]}`,
        )
        .join('\n');
      return {
        result: {
          ok: true,
          path: resolved.relative,
          tree,
          entries: entries.length,
          ...(truncated
            ? {
                truncated: true,
                notice: `Stopped at ${MAX_ENTRIES} entries: narrow the path or lower the depth.`,
              }
            : {}),
        },
      };
    },
  });
}
