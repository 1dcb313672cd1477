import { z } from 'zod';

/** One earlier tool call as the next turn sees it: no provider ids, no raw results. */
export const chatToolCallSchema = z.object({
  tool: z.string(),
  target: z.string(),
  outcome: z.string(),
  via: z.string().optional(),
  error: z.string().optional(),
});

export const fileChangeSchema = z.object({
  path: z.string(),
  change: z.enum(['created', 'updated', 'deleted', 'moved']),
  from: z.string().optional(),
  bytes: z.number().optional(),
  sha256: z.string().optional(),
  via: z.string(),
});

export const changeFlagSchema = z.object({
  path: z.string(),
  spelling: z.string(),
  said: z.string(),
  truth: z.string(),
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
export type ChatTurn = z.infer<typeof chatTurnSchema>;
export type TreeCacheEntry = z.infer<typeof treeCacheEntrySchema>;
export type Chat = z.infer<typeof chatSchema>;
