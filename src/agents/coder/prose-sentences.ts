/**
 * How the Coder's claim readers (mentioned-changes, counted-changes, read-claims,
 * stated-evidence) cut a reply into what it states: fenced code blanked (it states nothing;
 * line breaks kept, so a list's lines keep their places), then sentences.
 */

/** `text` with every fenced code block blanked to spaces, its line breaks kept. */
export function withoutCodeBlocks(text: string): string {
  return text.replace(/```[\s\S]*?(```|$)/g, (block) => block.replace(/[^\n]/g, ' '));
}

/** The sentences of prose: split at line breaks and after `.`, `!` or `?`. */
export function sentencesOf(prose: string): string[] {
  return prose.split(/\n+|(?<=[.!?])\s+/);
}

/** The last four words of `sentence` before `at`: where a negation or an intent ("you could") would stand. */
export function leadWords(sentence: string, at: number): string {
  return sentence.slice(0, at).split(/\s+/).filter(Boolean).slice(-4).join(' ');
}
