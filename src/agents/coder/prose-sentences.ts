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

/** Where a clause ends inside a sentence: a comma, semicolon, colon, dash or bracket. */
const CLAUSE_END = /[,;:\u2013\u2014()]|\s-\s/g;
/**
 * A clause opened by its subject, perhaps after a connective (`No problem, I created x`, `…, so
 * we deleted y`); a subject inside the clause (`I did not, as you asked, delete z`) opens none.
 * The languages the change checks read open theirs too (`…; j'ai modifié x`, `ich habe`, and
 * the auxiliaries Spanish and Italian open with: `he modificado`, `ho modificato`).
 */
const OPENS_WITH_SUBJECT =
  /^\s*(?:(?:so|and|but|then|thus|hence|instead|also|finally|next|now|therefore|afterwards|puis|et|y|e|und|dann)\s+)?(?:i|we|i've|we've|i'd|we'd|i'm|we're|je|j['\u2019]ai|nous|yo|he|hemos|eu|io|ho|abbiamo|ich|wir)(?![\p{L}'\u2019])/iu;

/**
 * The last four words before `at` in `sentence`, where a negation or an intent ("you could")
 * would stand, taken from the verb's own clause when that clause has a subject: in "No problem,
 * I created x" or "To be safe, I deleted y" the `no` and `to` belong to another clause, and the
 * verb is a claim. A clause without one ("I did not, however, delete z") reaches back to the
 * clause that has it, and so does one whose subject is not its first word ("I did not, as you
 * asked, delete z"). Only ever fewer words than the plain four: never less checked.
 */
export function leadWords(sentence: string, at: number): string {
  const before = sentence.slice(0, at);
  const ends = [...before.matchAll(CLAUSE_END)].map((match) => match.index + match[0].length);
  let from = 0;
  for (let index = ends.length - 1; index >= 0; index--)
    if (OPENS_WITH_SUBJECT.test(before.slice(ends[index]))) {
      from = ends[index] as number;
      break;
    }
  return before.slice(from).split(/\s+/).filter(Boolean).slice(-4).join(' ');
}
