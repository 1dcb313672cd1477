import { z } from 'zod';

/** One earlier tool call as the next turn sees it: no provider ids, no raw results. */
export const chatToolCallSchema = z.object({
  tool: z.string(),
  target: z.string(),
  outcome: z.string(),
  via: z.string().optional(),
  error: z.string().optional(),
});

/**
 * One file a turn changed, judged by content (before the turn vs after it). `moved`: the
 * content that stood at `from` now stands at `path` and `from` is gone; `replaced` when a
 * file was at `path` before. Fields added later are optional, so older chat files load.
 */
export const fileChangeSchema = z.object({
  path: z.string(),
  change: z.enum(['created', 'updated', 'deleted', 'moved']),
  from: z.string().optional(),
  replaced: z.boolean().optional(),
  bytes: z.number().optional(),
  sha256: z.string().optional(),
  via: z.string(),
});

/**
 * A statement of the reply that the changes report contradicts, told as "the reply says
 * `spelling` was `said`; the ledger shows: `truth`". `source`: the reply's `Changes:` list, its
 * prose, or the summary of the turn's `finish` call (absent in older chat files).
 */
export const changeFlagSchema = z.object({
  path: z.string(),
  spelling: z.string(),
  said: z.string(),
  truth: z.string(),
  source: z.enum(['changes-list', 'prose', 'finish']).optional(),
  /** A flag about a sentence, not a file ("All tests pass" in a turn that ran nothing): the sentence. */
  statement: z.string().optional(),
});

export const chatTurnSchema = z.object({
  runId: z.string(),
  at: z.string(),
  model: z.string(),
  user: z.string(),
  /** What the user was shown: the model's reply, or the recovery summary. */
  reply: z.string(),
  endingReason: z.string(),
  tools: z.array(chatToolCallSchema),
  changes: z.array(fileChangeSchema),
  flags: z.array(changeFlagSchema),
});

/** A cached `fs_tree` result, keyed by its canonical input (path and depth). */
export const treeCacheEntrySchema = z.object({
  key: z.string(),
  result: z.record(z.string(), z.unknown()),
  computedAt: z.string(),
});

export const chatSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  turns: z.array(chatTurnSchema),
  tree: z.array(treeCacheEntrySchema),
});

export type ChatToolCall = z.infer<typeof chatToolCallSchema>;
export type FileChange = z.infer<typeof fileChangeSchema>;
export type ChangeFlag = z.infer<typeof changeFlagSchema>;

/** A flag as one sentence: an unmet reason of the turn's verdict, and the CLI's FLAGGED line. */
export function flagSentence(flag: ChangeFlag): string {
  const who = flag.source === 'finish' ? 'finish summary' : 'reply';
  if (flag.statement !== undefined)
    return `the ${who} says "${flag.statement}"; the ledger shows: ${flag.truth}`;
  return `the ${who} says ${flag.spelling} was ${flag.said}; the ledger shows: ${flag.truth}`;
}
export type ChatTurn = z.infer<typeof chatTurnSchema>;
export type TreeCacheEntry = z.infer<typeof treeCacheEntrySchema>;
export type Chat = z.infer<typeof chatSchema>;
