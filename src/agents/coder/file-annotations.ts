import { LEADING_VERB, needsAuxiliary, type SaidChange, saidOf, statusOf, verbText } from './change-verbs.js';

/**
 * A summary line's word on the file just before it: `- src/z.ts — added`, `src/a.ts: updated`,
 * `src/a.ts -> updated`, `**src/z.ts** (new)`. Models write their reports this way all the
 * time, so a change word right after a dash, arrow or colon, or a parenthesis holding only
 * one, claims the change. Any other remark claims nothing here: `src/a.ts — new tests would
 * help`, `src/a.ts: see the comment`.
 */
export interface Annotation {
  /** The change word as claims spell it, and where it starts in the text after the file. */
  verb: string;
  at: number;
  /** What it says of the file; undefined for `src/a.ts: changed nothing` (no change claimed). */
  said: SaidChange | undefined;
  /**
   * The word is the whole remark (`(new)`, `— removed.`): it speaks for this file over a verb
   * before it (`src/a.ts (updated), src/z.ts (new)`). A remark that goes on (`— removed the
   * unused import`) may be a new clause of prose, so a verb before the file keeps the file.
   */
  whole: boolean;
}

/** Markup closing the file's spelling (`` ` ``, `**`), then a dash, arrow, colon or opening parenthesis. */
const OPENING =
  /^[`*_'"]*[ \t]*(?:(\()|->|=>|\u2192|\u21d2|\u279c|\u2794|\u27f6|--|\u2014|\u2013|-|:)[ \t]*[`*_]*[ \t]*(?:(?:newly|just)\s+)?/u;
/** A parenthesis that holds only the change word (`(new)`, `(new file)`, `(updated)`). */
const CLOSING = /^\s*(?:files?)?\s*\)/i;
/** The remark ends with the word: end of line, punctuation, a bracket, a dash, or a mark or emoji (`— deleted ✅`). */
const ENDS = /^\s*(?:[.,;!)]|\(|\s[-\u2013\u2014]\s|$|[\p{So}\p{Extended_Pictographic}])/u;
/** `new`/`gone` as a remark on their own (`— new`, `— new file`); before a noun they describe it. */
const ADJECTIVE_ALONE = /^\s*(?:(?:files?|modules?)\b\s*)?(?:[.,;:!)]|\(|[-\u2013\u2014]|$)/i;
/** `src/a.ts: changed nothing` states no change. */
const NOTHING = /^\s+(?:nothing|none|no)\b/i;
/**
 * What may follow a verb and keep its kind: a preposition, a conjunction, a pronoun for the
 * file, an adverb (`— removed because it was stale`, `— renamed to lib/b.ts`, `— removed it`).
 * Anything else is an object, and the change is inside the file: `src/a.ts — removed the
 * unused import` edits src/a.ts, it does not delete it.
 */
const KEEPS_KIND =
  /^\s+(?:and|or|to|into|as|from|because|since|for|with|by|in|on|at|per|after|before|via|it|them|too|also|now|here|again|instead|accordingly|\p{L}+ly)(?![\p{L}])/iu;

/** The annotation at the start of `after` (the text right after a file's spelling), if any. */
export function annotationAfter(after: string): Annotation | undefined {
  const opening = OPENING.exec(after);
  if (!opening) return undefined;
  const remark = after.slice(opening[0].length);
  const word = LEADING_VERB.exec(remark);
  if (!word) return undefined;
  const verb = verbText(word[0]);
  const rest = remark.slice(word[0].length);
  const at = opening[0].length;
  if (opening[1]) return CLOSING.test(rest) ? { verb, at, said: statusOf(verb), whole: true } : undefined;
  if (needsAuxiliary(verb))
    return ADJECTIVE_ALONE.test(rest) ? { verb, at, said: saidOf(verb), whole: true } : undefined;
  if (NOTHING.test(rest)) return { verb, at, said: undefined, whole: true };
  const said = saidOf(verb);
  if (ENDS.test(rest)) return { verb, at, said: statusOf(verb), whole: true };
  const object = !KEEPS_KIND.test(rest) && (said === 'deleted' || said === 'moved' || said === 'created');
  return { verb, at, said: object ? 'written' : said, whole: false };
}
