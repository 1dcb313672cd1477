import type { SaidChange } from './change-verbs.js';

/**
 * A file named as the exception to a denial of change: `Nothing was changed except src/a.ts`,
 * `I changed nothing but src/a.ts`, `I didn't touch any file other than src/a.ts`. The denial
 * covers every other file and claims this one, so a lie can hide in it as easily as in "I
 * changed src/a.ts" (a claim the negation rule alone would excuse).
 */

/** The exception word right before the file, other files of the same list between them. */
const EXCEPTION =
  /\b(?:except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|besides|save\s+for|but)(?:[\s`*_'",&]|\band\b|\bor\b)*$/i;
/** The denial the exception is taken from: `nothing`, `no files`, `didn't … anything`, `not … any file`. */
const DENIAL =
  /\b(?:nothing|none|no\s+(?:other\s+)?(?:files?|changes?))\b|(?:\bnot|n't|\bnever|\bwithout)\b.*\bany(?:thing|\s+(?:other\s+)?files?)\b/iu;
/** The change verb of the denial, in any form (`change`, `changed`, `touched`, `deleting`). */
const CHANGE_VERB =
  /\b(?:(delet|remov)(?:e|ed|ing)|(creat)(?:e|ed|ing)|chang(?:e|ed|ing)|modif(?:y|ied|ying)|touch(?:ed|ing)?|edit(?:ed|ing)?|updat(?:e|ed|ing)|add(?:ed|ing)?|writ(?:e|ten|ing)|wrote)\b/i;
/** A denial that is an intent, a condition or a request claims nothing (`I won't change anything but x`). */
const NOT_STATED =
  /\b(?:will|won't|would|wouldn't|should|shouldn't|could|couldn't|can|may|might|must|shall|going|plan|want|need|if|unless|whether|please)\b/i;

/**
 * The change claimed of the file that ends `before` (the sentence up to the file, other files
 * blanked) when it is the exception to a denial in its clause (`clause`, the file's clause
 * whole: the denial may come first or last, `Other than src/a.ts, no files were modified`).
 */
export function exceptedChange(before: string, clause: string): SaidChange | undefined {
  if (!EXCEPTION.test(before) || !DENIAL.test(clause) || NOT_STATED.test(clause)) return undefined;
  const verb = CHANGE_VERB.exec(clause);
  if (!verb) return undefined;
  return verb[1] ? 'deleted' : verb[2] ? 'created' : 'changed';
}
