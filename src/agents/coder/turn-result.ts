import type { EndingReason, RunContract, RunCounts, RunStatus } from '../../core/agent/ending.js';
import type { ChangeFlag, ChatToolCall, FileChange } from './chat-record.js';
import type { TurnDecisions } from './record-turn-decisions.js';
import type { TurnRecovery } from './turn-recovery.js';

/**
 * What one chat turn returns. Its own module: the turn runner builds it and the turn's event
 * stream carries it (`turn-end`), and neither of those may import the other.
 */
export interface TurnResult {
  chatId: string;
  /** 1 for the first turn of the chat. */
  turn: number;
  runId: string;
  model: string;
  /** What to show the user: the model's reply, or the recovery summary. Never empty. */
  reply: string;
  /** The model's own last text, if it said anything. */
  text?: string;
  endingReason: EndingReason;
  status: RunStatus;
  summary: string;
  /** Why the status is not `success` (the request's files, flags, a failed last call); empty on success. */
  unmet: string[];
  /** What the request asked of which files, when it named any. */
  contract?: RunContract;
  /** Set when the turn ended badly: the reason and a summary written from the ledger. */
  recovery?: TurnRecovery;
  /** The files this turn changed, by content (before the turn vs after it). */
  changes: FileChange[];
  /** Statements in the reply that the changes report contradicts. */
  flags: ChangeFlag[];
  tools: ChatToolCall[];
  counts: RunCounts;
  conversational: boolean;
  /** Whether this turn was given the layout (first turn only) and where it came from. */
  orientation?: { computed: boolean; entries: number };
  /** Decision records written after the turn, or why none could be. */
  decisions?: TurnDecisions;
}
