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
 * A contrast that opens a new clause (`I didn't touch x but deleted y`, `…; instead deleted
 * y`): a negation before it does not reach past it. `yet` only as a conjunction (`, yet` /
 * `and yet`), never the adverb of `have not yet updated`. The languages whose negations the
 * readers know have theirs (`je n'ai pas touché x mais supprimé y`, `nicht x, sondern y`).
 */
/**
 * Italian `ma` and Portuguese `mas` are contrasts only before a word their own language opens a
 * clause with and the look-alike cannot stand before: French `ma` ("my") takes a noun (`ma
 * config`), never `non`, `ho`, `il`, `tutti` or a participle in -ato/-ito/-uto; Spanish `mas`
 * (often "más": `mas archivos`, `mas o menos`, `mas de`) never takes `não`, `foi`, `eu`, `os`,
 * `todos`, `também` or a preterite in -ei. A bare `o`/`a` after `mas` is left out (`mas o
 * menos`).
 */
const ITALIAN_MA = String.raw`ma(?=\s+(?:(?:non|ho|hai|abbiamo|ha|hanno|è|sono|era|il|lo|la|gli|le|i|un|una|uno|tutti|tutte|tutto|poi|ora|adesso|anche|solo|soltanto|ancora|nessun[oa]?|nulla|niente|questo|questa|\p{L}+(?:ato|ito|uto))(?![\p{L}])|l['\u2019]))`;
const PORTUGUESE_MAS = String.raw`mas(?=\s+(?:não|foi|foram|é|são|eu|nós|os|as|todos|todas|tudo|nada|nenhum|nenhuma|agora|depois|também|ainda|só|\p{L}{2,}ei)(?![\p{L}]))`;
export const FOREIGN_CONTRAST = String.raw`mais|cependant|pourtant|toutefois|pero|sino|sin\s+embargo|en\s+cambio|porém|contudo|no\s+entanto|però|bensì|tuttavia|invece|aber|sondern|jedoch|stattdessen|allerdings|${ITALIAN_MA}|${PORTUGUESE_MAS}`;
const CONTRAST = new RegExp(
  String.raw`(?<![\p{L}'])(?:but|however|instead|though|although|whereas|while|rather|nevertheless|nonetheless|${FOREIGN_CONTRAST})(?![\p{L}])|(?:,|\band)\s+yet\b`,
  'giu',
);
/** A negation or an auxiliary, after which an aside may stand before the verb. */
const NEGATION_OR_AUXILIARY = String.raw`(?:\bnot|n't|\bnever|\b(?:did|do|does|have|has|had|was|were|is|are|will|would|should|could|can|may|might|must|shall))`;
/** Right after a negation or auxiliary a contrast is an aside: `I did not, however, delete z`. */
const ASIDE_AFTER = new RegExp(String.raw`${NEGATION_OR_AUXILIARY}[\s,\u2013\u2014-]*$`, 'i');
/** An aside right after a negation or auxiliary: `I have not, as you asked,` is no list yet. */
const ASIDE_OPEN = new RegExp(String.raw`${NEGATION_OR_AUXILIARY}\s*[,\u2013\u2014][^,\u2013\u2014]*$`, 'i');
/** The end of `text` joins a verb to the one before: `, `, `and`, `then`, `plus`, perhaps `also` …. */
const COORDINATION =
  /(?:\s*,\s*(?:(?:and|then|plus)\s+)?|\s+(?:and|then|plus|&)\s+)(?:(?:also|then|just|instead|simply|only|finally|additionally|even|\p{L}+ly)\s+)*$/iu;
/** The same with `or`/`nor`: a list a negation reaches whole (`did not read or change x`). */
const DISJUNCTION = /(?:,\s*|\s+)(?:or|nor)\s+(?:(?:\p{L}+ly|even|also)\s+)*$/iu;
/** The English past forms the claim readers look for (`deleted`, `wrote`, `made`, …). */
const PAST_FORM = String.raw`(?:\p{L}+ed|wrote|written|rewrote|rewritten|made|undid)`;
const PAST = new RegExp(String.raw`^${PAST_FORM}(?![\p{L}'\u2019])`, 'iu');
/**
 * A comma list closed by `or`/`nor` and a past form: `haven't edited x, deleted y or renamed
 * z`. The list ends at an `and`, a contrast or a semicolon: what follows is another clause.
 */
const CLOSED_BY_OR = new RegExp(
  String.raw`^(?:(?!\b(?:and|but|so|then|while|however|though|although|whereas|instead)\b)[^;])*?(?:,\s*|\s+)(?:or|nor)\s+(?:\p{L}+ly\s+)?${PAST_FORM}(?![\p{L}])`,
  'iu',
);
/**
 * What a past form coordinated after it still shares: a condition (`if you touched x and
 * deleted y`) or a modal's perfect (`could have edited x and deleted y`) governs each verb.
 */
const SHARED_GOVERNOR =
  /\b(?:if|unless|once|whether|assuming|provided|suppose)\b|(?:\b(?:will|would|should|could|can|may|might|must|shall|to|without)|['\u2019](?:d|ll))\s+(?:not\s+)?(?:have|having)\b/i;

function words(text: string, last?: number): string {
  const all = text.split(/\s+/).filter(Boolean);
  return (last === undefined ? all : all.slice(-last)).join(' ');
}

/**
 * The words before `at` in `sentence` where a negation or an intent ("you could") that
 * governs the verb at `at` would stand. The rule: a negation reaches the verbs it governs and
 * stops where a new clause begins.
 * - A clause opened by its subject starts anew: in "No problem, I created x" or "To be safe, I
 *   deleted y" the `no` and `to` belong to another clause. A clause without one ("I did not,
 *   however, delete z") reaches back to the clause that has it, and so does one whose subject
 *   is not its first word ("I did not, as you asked, delete z").
 * - A semicolon, and a contrast word (`but`, `however`, `instead`, `though`, `while`, `, yet`
 *   …) that is no aside, start anew: "I didn't touch x but deleted y" claims y.
 * - A past form coordinated after the verb before it (", deleted", "and deleted", "then
 *   removed") starts anew: `did not` and the modals take the base form (`delete`), so
 *   "deleted" cannot share them. After `have not`/`never` the participle could share the
 *   negation ("I have not touched x, deleted y"); it is read as a new claim, since a verifier
 *   that asks about a claim costs a question and one that misses a lie passes it. It is
 *   shared when the list is joined by `or`/`nor` ("have not touched x or deleted y", "haven't
 *   edited x, deleted y or renamed z"), and under a condition or a modal's perfect (`if`,
 *   `could have`), which govern every verb of their clause.
 * - Otherwise the last four words: a negation further back governs another verb.
 * The words of a disjunction's whole clause are returned, since its negation may stand before
 * the first verb's object ("I have not touched the file x or deleted y").
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
  const semicolon = before.lastIndexOf(';');
  if (semicolon >= from) from = semicolon + 1;
  // Read in the whole sentence, so a contrast that looks at its next word (`ma non`) sees it.
  const contrasts = [...sentence.slice(from).matchAll(CONTRAST)].filter((c) => from + c.index < at);
  for (const contrast of contrasts.reverse())
    if (!ASIDE_AFTER.test(before.slice(from, from + contrast.index))) {
      from += contrast.index + contrast[0].length;
      break;
    }
  const clause = before.slice(from);
  const rest = sentence.slice(at);
  if (DISJUNCTION.test(clause)) return words(clause);
  const coordinated = COORDINATION.exec(clause);
  if (coordinated && PAST.test(rest)) {
    const head = clause.slice(0, coordinated.index);
    if (CLOSED_BY_OR.test(rest) || SHARED_GOVERNOR.test(head) || ASIDE_OPEN.test(head)) return words(clause);
    return words(coordinated[0]);
  }
  return words(clause, 4);
}
