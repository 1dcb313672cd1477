import { z } from 'zod';
import { unresolvedIntents, unresolvedIntentWords } from '../intents.js';
import type { LedgerEntry } from '../ledger/entry.js';
import { ENDING_REASONS, type RunStatus } from './ending.js';

/**
 * The end entry of a run that served tool calls and claimed nothing (an MCP session): its
 * status is a rule over its calls, not a verdict over claims. Read as data from outside.
 */
export const sessionEndSchema = z.object({
  status: z.enum(['success', 'partial', 'failed']),
  reason: z.enum(ENDING_REASONS),
  unmet: z.array(z.string()).optional(),
  /** The session lost a request to its transport: never a clean success. */
  transportError: z.boolean().optional(),
  counts: z.object({ toolCalls: z.number().int().nonnegative(), failures: z.number().int().nonnegative() }),
});

export type SessionEnd = z.infer<typeof sessionEndSchema>;

export interface SessionFacts {
  status: RunStatus;
  toolCalls: number;
  failures: number;
  unmet: string[];
}

/**
 * The session's status from its entries alone, by the rule its end used: every call ok, no
 * change declared without an outcome, no request lost to the transport is `success`; some
 * calls ok is `partial`; none is `failed`.
 */
export function sessionFacts(before: readonly LedgerEntry[], transportError: boolean): SessionFacts {
  const calls = before.filter((entry) => entry.kind === 'tool_call');
  const failures = calls.filter((entry) => entry.outcome !== 'ok').length;
  const unmet = unresolvedIntents(before).map(unresolvedIntentWords);
  const status: RunStatus =
    failures === 0 && !transportError && unmet.length === 0
      ? 'success'
      : calls.length - failures > 0
        ? 'partial'
        : 'failed';
  return { status, toolCalls: calls.length, failures, unmet };
}
