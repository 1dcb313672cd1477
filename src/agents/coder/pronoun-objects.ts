/**
 * The files a pronoun after a change verb stands for: "Instead of deleting a.ts, I rewrote it",
 * "I looked at b.ts and then deleted it", "I read a.ts and b.ts. I removed both." A claim made
 * through a pronoun is as much a claim as one that names the file, so a reader that skips it
 * lets a lie through. Only an unambiguous pronoun is resolved; any doubt claims nothing, since
 * a flag on a file the sentence was not about is a false flag.
 */

interface Span {
  start: number;
  end: number;
  text: string;
}

/** A pronoun or a noun phrase for one file, or for several, right after the verb (an adverb allowed). */
const OBJECT =
  /^\s+(?:(?:\p{L}+ly|also|then|too|just)\s+)?(?:(it|the\s+(?:same\s+)?file|this\s+file|that\s+file)|(them|both(?:\s+of\s+them)?|all\s+of\s+them|both\s+files|these\s+files|those\s+files|the\s+(?:two\s+)?files))(?![\p{L}\p{N}_'-]|\.[\p{L}])/iu;
/** After a noun phrase, words that make it another file (`updated the file that imports it`, `the file src/z.ts`). */
const ANOTHER_FILE =
  /^\s*(?:that|which|where|with|for|of|named|called|in|under|at|from|[`*_"']*[\w.-]*[./][\w])/i;
/**
 * After the pronoun, a place (`removed it from the barrel`, `added it to the exports`): the
 * change is to that place, not a delete or write of the file.
 */
const PLACE = /^\s+(?:to|into|in|inside|within|onto|from|out\s+of)(?![\p{L}])/iu;
/**
 * A noun phrase before the pronoun other than the files: the pronoun may stand for it (`read
 * a.ts, found a bug and fixed it`, `moved the helper out of a.ts and deleted it`).
 */
const OTHER_NOUN =
  /(?<![\p{L}'])(?:a|an|the|this|that|these|those|some|its|their|his|her|my|our|your|each|every|another|any|one|two|three|several)(?![\p{L}'])/iu;
/** A phrase that only introduces the file after it (`the file a.ts`, `the new module b.ts`). */
const FILE_INTRO =
  /(?<![\p{L}'])(?:a|an|the|this|that)\s+(?:[\p{L}-]+\s+)?(?:files?|modules?|scripts?)\s*[`*_"']*$/iu;
/** Between the files of one list: punctuation, markup, `and`/`or`. */
const LIST_GAP = /^(?:[\s,`*_'"&]|\band\b|\bor\b)*$/i;

export interface PronounObject {
  /** The verb the pronoun is the object of. */
  verb: Span;
  /** The files it stands for, as spelled. */
  spellings: string[];
  /** The change is to a place named after the pronoun (`removed it from …`). */
  placed: boolean;
}

/** The files named before `at`, if they are one file or one list of several (as `plural` needs). */
function antecedents(text: string, files: readonly Span[], at: number, plural: boolean): Span[] | undefined {
  const before = files.filter((file) => file.end <= at);
  const distinct = new Set(before.map((file) => file.text));
  if (!plural) return distinct.size === 1 ? before.slice(-1) : undefined;
  if (distinct.size < 2) return undefined;
  for (let index = 1; index < before.length; index++)
    if (!LIST_GAP.test(text.slice((before[index - 1] as Span).end, (before[index] as Span).start)))
      return undefined;
  return before;
}

/** `text` with each file, and the phrase that introduces it, cut out. */
function withoutFiles(text: string, files: readonly Span[]): string {
  let out = '';
  let from = 0;
  for (const file of files) {
    if (file.start >= text.length) break;
    out += `${text.slice(from, file.start).replace(FILE_INTRO, '')} `;
    from = file.end;
  }
  return out + text.slice(from);
}

/**
 * The objects of `verbs` that are pronouns for files: in `sentence` (its `files`), a file or
 * one list of files named before the pronoun, with no other noun phrase between them; or,
 * when the sentence names none before it, the same in the sentence before (`previous`, its
 * `previousFiles`). Two files for `it`, one for `them`, files in two places, or any other noun
 * phrase before the pronoun (a thing it may stand for) are ambiguous.
 */
export function pronounObjects(
  sentence: string,
  verbs: readonly Span[],
  files: readonly Span[],
  previous: string,
  previousFiles: readonly Span[],
): PronounObject[] {
  const objects: PronounObject[] = [];
  for (const verb of verbs) {
    const object = OBJECT.exec(sentence.slice(verb.end));
    if (!object) continue;
    const end = verb.end + object[0].length;
    if (/\s/.test(object[1] ?? object[2] ?? '') && ANOTHER_FILE.test(sentence.slice(end))) continue;
    const plural = object[2] !== undefined;
    const here = files.some((file) => file.end <= verb.start);
    const named = here
      ? antecedents(sentence, files, verb.start, plural)
      : antecedents(previous, previousFiles, previous.length, plural);
    if (!named || named.length === 0) continue;
    const context = here
      ? withoutFiles(sentence.slice(0, verb.start), files)
      : `${withoutFiles(previous, previousFiles)} ${withoutFiles(sentence.slice(0, verb.start), files)}`;
    if (OTHER_NOUN.test(context)) continue;
    objects.push({
      verb,
      spellings: [...new Set(named.map((file) => file.text))],
      placed: PLACE.test(sentence.slice(end)),
    });
  }
  return objects;
}
