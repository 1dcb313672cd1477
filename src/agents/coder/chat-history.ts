import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { LedgerEntry } from '../../core/ledger/entry.js';
import { type Chat, type ChatToolCall, type ChatTurn, flagSentence } from './chat-record.js';

/** How much of a chat the next turn sees: enough to continue, small enough to stay cheap. */
export const HISTORY_LIMITS = { turns: 20, toolCallsPerTurn: 40, textChars: 4000 } as const;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The compact record of a turn's tool calls, from its ledger entries (never from provider messages). */
export function toolCallsOf(entries: readonly LedgerEntry[]): ChatToolCall[] {
  return entries
    .filter((entry) => entry.kind === 'tool_call')
    .map((entry) => {
      const { evidence, error } = entry.data;
      return {
        tool: String(entry.data.tool ?? entry.name ?? ''),
        target: String(entry.data.target ?? ''),
        outcome: String(entry.outcome ?? ''),
        ...(typeof evidence?.via === 'string' ? { via: evidence.via } : {}),
        ...(error
          ? { error: clip(`${String(error.code ?? 'ERROR')}: ${String(error.message ?? '')}`, 200) }
          : {}),
      };
    });
}

function describeCall(call: ChatToolCall): string {
  const target = call.target && call.target !== call.tool ? ` ${call.target}` : '';
  const detail = call.error ? ` — ${call.error}` : call.via ? ` — ${call.via}` : '';
  return `${call.tool}${target} → ${call.outcome}${detail}`;
}

/** A turn's tool calls as one short text note, written by the harness. */
export function toolNote(turn: ChatTurn): string {
  const flags = turn.flags.map((flag) => `\nFlagged: ${flagSentence(flag)}.`);
  if (turn.tools.length === 0 && flags.length === 0) return '';
  const shown = turn.tools.slice(0, HISTORY_LIMITS.toolCallsPerTurn).map(describeCall);
  const more = turn.tools.length - shown.length;
  const calls =
    shown.length > 0 ? `\n- ${shown.join('\n- ')}${more > 0 ? `\n- … and ${more} more` : ''}` : ' none';
  const ending = turn.endingReason === 'finished' ? '' : `\nThe turn ended: ${turn.endingReason}.`;
  return `[Harness record of the tool calls in this turn:${calls}${ending}${flags.join('')}]`;
}

/**
 * The history carried into the next turn: user and assistant TEXT only, each earlier turn's
 * tool calls summarized in a note before the reply. No provider tool-call ids or tool-result
 * messages are carried, so a chat started on one provider continues on any other.
 */
export function historyMessages(chat: Chat): LanguageModelV3Message[] {
  return chat.turns.slice(-HISTORY_LIMITS.turns).flatMap((turn): LanguageModelV3Message[] => {
    const note = toolNote(turn);
    const reply = clip(turn.reply, HISTORY_LIMITS.textChars);
    return [
      { role: 'user', content: [{ type: 'text', text: clip(turn.user, HISTORY_LIMITS.textChars) }] },
      { role: 'assistant', content: [{ type: 'text', text: note ? `${note}\n\n${reply}` : reply }] },
    ];
  });
}
