import { lstat, mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ToolRejectedError } from '../../../core/errors.js';
import { defineTool } from '../../../core/tool.js';
import { fileEffect, filesUnder, type PriorState, priorState } from '../file-effects.js';
import { evidenceVia, readBackEvidence } from '../file-evidence.js';
import { intendFileChange } from '../file-intent.js';
import { PathOutsideProjectError } from '../path-outside-project-error.js';
import type { WorkspaceContext } from './workspace-context.js';

export function fsMove(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_move',
    description:
      'Move or rename a file or directory inside the project. Refuses to overwrite unless overwrite is true. Returns both paths and, for a file, bytes and sha256 read back at the destination.',
    inputSchema: z.object({ from: z.string(), to: z.string(), overwrite: z.boolean().default(false) }),
    annotations: { destructive: true },
    target: (input) => `${input.from}->${input.to}`,
    execute: async (input, call) => {
      const from = await context.root.resolveEntry(input.from);
      const to = await context.root.resolve(input.to);
      // Security: an overwrite replaces what stands at the destination, and all below it.
      if (to.exists && context.root.holdsProtected(to.absolute))
        throw new PathOutsideProjectError(input.to, to.absolute, 'protected-path', context.root.realRoot);
      if (!from.exists) throw new ToolRejectedError('FILE_NOT_FOUND', `Nothing at ${from.relative} to move.`);
      if (from.relative === '.')
        throw new PathOutsideProjectError(input.from, from.absolute, 'project-root', context.root.realRoot);
      if (to.exists && !input.overwrite)
        throw new ToolRejectedError(
          'DESTINATION_EXISTS',
          `${to.relative} exists. Pass overwrite: true to replace it.`,
        );
      const inside = (await lstat(from.entry)).isDirectory()
        ? filesUnder(context.root, from.entryRelative)
        : [];
      const existedBefore = new Set(
        to.exists
          ? [
              to.relative,
              ...((await lstat(to.absolute)).isDirectory() ? filesUnder(context.root, to.relative) : []),
            ]
          : [],
      );
      // What an overwrite replaces at the destination (only then is anything read before the rename).
      const replaced: PriorState | undefined = to.exists ? await priorState(to.absolute) : null;
      await mkdir(dirname(to.absolute), { recursive: true });
      await intendFileChange(call, 'move', [from.entryRelative, to.relative]);
      await rename(from.entry, to.absolute);
      await context.writeHooks?.afterChange?.();
      const isFile = (await lstat(to.absolute)).isFile();
      const evidence = isFile ? await readBackEvidence(to.absolute, to.relative) : undefined;
      // A move is a delete of the source and a create (or update) of the destination.
      const pairs: [string, string][] = [
        [from.entryRelative, to.relative],
        ...inside.map((path): [string, string] => [
          path,
          `${to.relative}${path.slice(from.entryRelative.length)}`,
        ]),
      ];
      // `before`: a renamed file held what now stands at the destination (rename keeps the bytes).
      const effects = pairs.flatMap(([source, destination], index) => [
        fileEffect(
          'deleted',
          source,
          undefined,
          { movedTo: destination },
          index === 0 ? evidence : undefined,
        ),
        fileEffect(
          existedBefore.has(destination) ? 'updated' : 'created',
          destination,
          index === 0 ? evidence : undefined,
          { movedFrom: source },
          index === 0 ? replaced : existedBefore.has(destination) ? undefined : null,
        ),
      ]);
      return {
        result: { ok: true, from: from.entryRelative, to: to.relative, ...(evidence ?? {}) },
        evidence: {
          effects,
          via: evidence
            ? evidenceVia('fs_move', to.relative, evidence)
            : `fs_move ${from.entryRelative} -> ${to.relative}`,
        },
      };
    },
  });
}
