import { changeFlagSchema, flagSentence } from '../../agents/coder/chat-record.js';
/** A flag as one line: the Coder's (its one sentence form), or whatever a review gave. */
export function flagLine(flag: unknown): string {
  const coder = changeFlagSchema.safeParse(flag);
  return coder.success ? flagSentence(coder.data) : JSON.stringify(flag);
}
