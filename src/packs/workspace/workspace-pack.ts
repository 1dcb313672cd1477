import { join } from 'node:path';
import { sweepOrphanedTempFiles } from '../../core/io/temp-files.js';
import { definePack } from '../../core/pack.js';
import { ProjectRoot } from './project-root.js';
import { workspaceTools } from './tools/index.js';

/**
 * The workspace as a pack (`--packs fs`): the nine `fs_*` tools over the served root. The
 * project's `.tally/` is Tally's (recipes with login fields, digests, an earlier ledger) and is
 * protected along with whatever the surface protects (the session's ledger).
 */
export const workspacePack = definePack({
  name: 'fs',
  description: 'Project-scoped file tools whose evidence is read back from disk.',
  failOpenReasons: [],
  // Writes killed before their rename (an earlier server's) leave temporary files: gone before any session.
  prepare: async (context) => {
    const root = await ProjectRoot.open(context.root, { protect: [...context.protect] });
    sweepOrphanedTempFiles(root.realRoot, { exclude: root.protectedLocations });
  },
  tools: async (context) => {
    const projectRoot = await ProjectRoot.open(context.root, {
      protect: [...context.protect, join(context.root, '.tally')],
    });
    return { tools: workspaceTools({ root: projectRoot }), provides: { projectRoot } };
  },
  adversaries: {
    read: (effect) =>
      effect.space === 'file' ? { tool: 'fs_read', input: { path: effect.key } } : undefined,
    remove: (effect) =>
      effect.space === 'file' ? { tool: 'fs_delete', input: { path: effect.key } } : undefined,
  },
});
