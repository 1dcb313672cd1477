import { netEffects } from '../../core/effects.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { defineTool, type ToolDefinition } from '../../core/tool.js';
import type { ProjectRoot } from '../../packs/workspace/project-root.js';
import { layoutSignature } from './changes-report.js';
import type { TreeCacheEntry } from './chat-record.js';

/** The orientation every chat gets once: the layout of the root, three levels deep. */
export const ORIENTATION_INPUT = { path: '.', depth: 3 } as const;

const START = '';

/**
 * A chat's cached `fs_tree` results. An entry is valid while the layout it saw still holds
 * as far as this chat knows: `validAt` is the turn's layout signature (files created or
 * deleted so far in the turn, net) when it was computed; `START` means "as of the start of
 * the turn". Changes made outside the chat are not seen, by design: the cache answers for
 * the chat's own writes.
 */
export class TreeCache {
  private readonly entries = new Map<string, { entry: TreeCacheEntry; validAt: string }>();

  constructor(stored: readonly TreeCacheEntry[]) {
    for (const entry of stored) this.entries.set(entry.key, { entry, validAt: START });
  }

  static keyOf(relative: string, depth: number): string {
    return `${relative}@${depth}`;
  }

  lookup(key: string, signature: string): TreeCacheEntry | undefined {
    const found = this.entries.get(key);
    return found && found.validAt === signature ? found.entry : undefined;
  }

  store(key: string, result: Record<string, unknown>, signature: string): TreeCacheEntry {
    const entry = { key, result, computedAt: new Date().toISOString() };
    this.entries.set(key, { entry, validAt: signature });
    return entry;
  }

  /** What stays valid for the next turn, given the layout signature at the end of this one. */
  endTurn(finalSignature: string): TreeCacheEntry[] {
    return [...this.entries.values()]
      .filter((found) => found.validAt === finalSignature)
      .map((found) => found.entry);
  }
}

export interface CachedTreeOptions {
  root: ProjectRoot;
  ledger: Ledger;
  cache: TreeCache;
}

/**
 * `fs_tree` for a chat: a repeat call returns the cached tree (the result says so), until
 * this chat's own writes create, delete or move a file. Every call, cached or not, is still
 * a `tool_call` entry, with `evidence.cached` telling which, so tree calls per chat can be
 * counted from the ledger.
 */
export function cachedTreeTool(original: ToolDefinition, options: CachedTreeOptions): ToolDefinition {
  return defineTool({
    ...original,
    description: `${original.description} Cached for this chat: a repeat call returns the same layout until this chat creates, deletes or moves a file.`,
    execute: async (input: { path: string; depth: number }, context) => {
      const resolved = await options.root.resolve(input.path);
      const key = TreeCache.keyOf(resolved.relative, input.depth);
      const signature = layoutSignature(netEffects(options.ledger.entries(context.runId)));
      const hit = options.cache.lookup(key, signature);
      if (hit) {
        return {
          result: {
            ...hit.result,
            cached: true,
            notice: `Cached layout from earlier in this chat (computed ${hit.computedAt}); no file has been created, deleted or moved by this chat since. Use fs_list for a directory's current entries.`,
          },
          evidence: { via: `fs_tree ${key} (cached)`, cached: true },
        };
      }
      const outcome = await original.execute(input, context);
      const result = outcome.result as Record<string, unknown>;
      if (result.ok === true) options.cache.store(key, result, signature);
      return {
        result: { ...result, cached: false },
        evidence: { ...outcome.evidence, via: `fs_tree ${key}`, cached: false },
      };
    },
  });
}
