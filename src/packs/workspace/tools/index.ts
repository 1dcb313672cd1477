import type { ToolDefinition } from '../../../core/tool.js';
import { fileClaimResolver } from '../file-effects.js';
import { oneChangeAtATime } from '../one-change-at-a-time.js';
import { fsDelete } from './fs-delete.js';
import { fsEdit } from './fs-edit.js';
import { fsGlob } from './fs-glob.js';
import { fsGrep } from './fs-grep.js';
import { fsList } from './fs-list.js';
import { fsMove } from './fs-move.js';
import { fsRead } from './fs-read.js';
import { fsTree } from './fs-tree.js';
import { fsWrite } from './fs-write.js';
import type { WorkspaceContext } from './workspace-context.js';

/** The workspace pack: every tool bound to one project root. */
export function workspaceTools(context: WorkspaceContext): ToolDefinition[] {
  const claimResolver = fileClaimResolver(context.root);
  const tools: ToolDefinition[] = [
    fsRead(context),
    fsWrite(context),
    fsEdit(context),
    fsList(context),
    fsTree(context),
    fsGlob(context),
    fsGrep(context),
    fsMove(context),
    fsDelete(context),
  ];
  return tools.map((tool) =>
    tool.annotations.readOnly
      ? { ...tool, claimResolver }
      : // A change waits for the one before it (see one-change-at-a-time.ts).
        {
          ...tool,
          claimResolver,
          execute: (input, call) => oneChangeAtATime(() => tool.execute(input, call)),
        },
  );
}

export type { WorkspaceContext };
