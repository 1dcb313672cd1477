import { flagSentence } from '../agents/coder/chat-record.js';
import type { TurnResult } from '../agents/coder/run-turn.js';

/**
 * The line a surface shows for a turn that is not a success: its status and the reasons not
 * told already (each flag is shown in full on its own line). Undefined for a success. The
 * terminal and the chat page both show it, so neither can present a partial turn as done.
 */
export function turnStatusLine(turn: Pick<TurnResult, 'status' | 'unmet' | 'flags'>): string | undefined {
  if (turn.status === 'success') return undefined;
  const told = new Set(turn.flags.map(flagSentence));
  const reasons = turn.unmet.filter(
    (reason) => !told.has(reason) && !reason.startsWith('the run ended without'),
  );
  return `Status: ${turn.status}${reasons.length ? ` — ${reasons.join('; ')}` : ''}.`;
}
