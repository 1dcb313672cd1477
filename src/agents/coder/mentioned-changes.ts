import { CHANGE_HEADING, changeBlocks, NOTHING_CHANGED } from './change-blocks.js';
import {
  afterOnly,
  fromIsSource,
  needsAuxiliary,
  placedKind,
  type SaidChange,
  saidOf,
  statusOf,
  VERB_PATTERN,
  verbText,
} from './change-verbs.js';
import { claimProse } from './claim-prose.js';
import { exceptedChange } from './excepted-changes.js';
import { annotationAfter } from './file-annotations.js';
import { pronounObjects } from './pronoun-objects.js';
import { FOREIGN_CONTRAST, leadWords, sentencesOf } from './prose-sentences.js';

export type { SaidChange } from './change-verbs.js';

export interface MentionedChange {
  /** The file as the text spells it. */
  spelling: string;
  said: SaidChange;
  verb: string;
  /**
   * The verb's clause places the change in an earlier turn (`in turn 1 I created`, `created
   * earlier`, `previously`) and does not repeat it (`again`, `as before`, `as earlier`).
   */
  recap: boolean;
}

/** Words that put a change in an earlier turn of the chat. */
const RECAP =
  /\b(earlier|previously|already|so far|(?:in|during) (?:the |my |our )?(?:last|previous|prior|first|earlier) (?:turn|message|reply)|before this turn|turns? \d+)\b/i;
/** Words that say a change was made (again) now: never a recap, whatever else the clause says. */
const REPEAT =
  /\b(again|once more|anew|as (?:before|earlier|previously|last time|I did|we did|in turn \d+|in (?:the )?(?:last|previous|first) turn)|like (?:before|earlier|last time|in turn \d+)|same as (?:before|earlier))\b/i;
/** Clause boundaries inside a sentence: a recap word reaches only the clause it stands in. */
const CLAUSE = /;|\s[—–-]\s|,?\s+(?:and|but|then|now|also|plus|while|whereas)\s+/gi;

/** Words before a verb that make it no claim: negation, intent, condition. */
// `I'd have deleted` is a counterfactual, `I'd deleted` ("I had") a claim.
const NOT_A_CLAIM =
  /\b(\w+'d\s+have|\w+'d've|\w+'ll|not|never|neither|nor|nothing|didn't|don't|doesn't|haven't|hasn't|hadn't|wasn't|weren't|isn't|aren't|cannot|can't|couldn't|won't|wouldn't|without|will|would|should|could|can|may|might|must|shall|need|needs|going|want|wants|plan|if|once|to|be|pas|jamais|rien|no|nunca|nada|n\u00e3o|non|mai|nicht|kein|keine|nie)\b/i;
/** Words between a verb and a file that detach the file from the verb. */
const BREAKER = new RegExp(
  String.raw`(?<![\p{L}])(?:read|looked|checked|inspected|opened|listed|viewed|searched|grepped|found|saw|examined|reviewed|left|kept|ran|verified|confirmed|but|although|however|while|untouched|unchanged|except|without|you|should|could|may|might|recommend|suggest|consider|${FOREIGN_CONTRAST})(?![\p{L}])`,
  'iu',
);
/** After a file, a passive change: `src/a.ts was updated`, `src/a.ts: created`. */
const PASSIVE_GAP = /^[\s:\-—–()|]*$/;
// With the passive auxiliaries of the foreign verbs (`README.md foi removido`, `a.txt wurde gelöscht`).
const AUXILIARY_GAP =
  /^[\s,]*(?:(?:and|or|is|was|were|are|has|have|had|been|got|now|also|successfully|just|all|both|then|already|foi|foram|fue|fueron|sido|été|è|stato|stata|wurde|wurden|ist|sind|worden)(?![\p{L}])[\s,]*)*$/iu;
const HAS_AUXILIARY =
  /(?<![\p{L}])(is|was|were|are|has|have|had|been|got|foi|foram|fue|fueron|sido|été|è|stato|stata|wurde|wurden|ist|sind|worden)(?![\p{L}])/iu;
/** Before a verb used as a label (`Added: src/z.ts`, `- **New files:** …`): a bullet or markup only. */
const LABEL_LEAD = /^\s*(?:(?:[-*+\u2022]|\d{1,3}[.)])\s+)?[*_]{0,2}$/;
const LABEL_TAIL = /^(?:\s+files?)?[*_]{0,2}\s*:/i;
/** Between a verb and its object file: nothing but markup and the other files of a list. */
const DIRECT_OBJECT = /^(?:[\s`*_'",&]|\band\b)*$/i;
/** After an added file, a place it was added to (`added src/a.ts to the exports`): no new file. */
const ADDED_TO = /^(?:'s\b|[^,;:.!?\u2013\u2014]*?\b(?:to|into|in|inside|within|onto)\b)/i;
/** A status word that ends its remark (`src/z.ts was added.`, `| src/z.ts | added |`). */
const STATUS_ENDS = /^\s*(?:$|[.,;!|)]|\(|\s[-\u2013\u2014]\s)/;
/** Right before a verb, a determiner: the verb is an adjective (`the updated helper`). */
const DETERMINER_BEFORE = /(?:^|\s)(?:the|a|an|this|that|these|those|its|their|our|my|your|his|her)\s+$/i;
/** After a present passive, a process, not an event: `src/gen.ts is generated from the schema`, `… at build time`. */
const DESCRIBED =
  /^\s+(?:from|at|during|when|whenever|automatically|dynamically|on\s+(?:each|every|build|startup|save)|each|every|per)(?![\p{L}])/iu;
const PRESENT_AUXILIARY = /(?<![\p{L}])(?:is|are)(?![\p{L}])/iu;

const NOT_FILES = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'a.m',
  'p.m',
  'node.js',
  'next.js',
  'vue.js',
  'nuxt.js',
  'express.js',
  'three.js',
  'd3.js',
  'chart.js',
  'socket.io',
  'and/or',
  'either/or',
  'read/write',
  'input/output',
  'created/updated',
  'true/false',
  'yes/no',
  'on/off',
  'client/server',
  'w/o',
  '.net',
  'asp.net',
]);
const WINDOWS_PATH = /^[\w@.~-]+(?:\\[\w@.~-]+)*\\[\w@.~-]*[\w@~-]\.[A-Za-z][A-Za-z0-9]{0,9}$/;
const NAME_DOT_EXT = /^[\w@.~-]*[\w@~-]\.[A-Za-z][A-Za-z0-9]{0,9}$/;
/** A dotfile at any depth: `.env`, `.gitignore`, `.env.local`, `.eslintrc.json`. */
const DOTFILE = /^\.[\w-][\w.-]*$/;
/** After a bare `.ts`, what makes it an extension or a method, not a file: `the .ts files`, `.then()`. */
const NOT_A_DOTFILE_AFTER = /^(?:\(|\s*(?:files?|extensions?|suffix(?:es)?|sources?|modules?)\b)/i;

/**
 * The file a token spells, or undefined: a path (contains `/`), a `name.ext`, or a dotfile.
 * Leading dots are kept (`.env`, `.github/…`, `./a.ts`, `../a.ts`) except an ellipsis.
 */
export function fileLike(raw: string, after = ''): string | undefined {
  const token = raw
    .replace(/^(?:\.{3,}|…)+/, '')
    .replace(/^[:!?]+/, '')
    // Strikethrough around a name (`~~src/b.ts~~ (removed)`) is markup; a home path's `~/` is not.
    .replace(/^~~|~~$/g, '')
    .replace(/[.:!?]+$/, '')
    .replace(/:\d+(:\d+)?$/, '');
  if (!token || NOT_FILES.has(token.toLowerCase()) || !/[A-Za-z]/.test(token) || token.startsWith('//'))
    return undefined;
  if (token.includes('/') || NAME_DOT_EXT.test(token)) return token;
  // A Windows spelling (`src\\a.ts`) names the same file as `src/a.ts`.
  if (WINDOWS_PATH.test(token)) return token.replaceAll('\\', '/');
  if (DOTFILE.test(token) && !NOT_A_DOTFILE_AFTER.test(after)) return token;
  return undefined;
}

interface Span {
  start: number;
  end: number;
  text: string;
}

function without(text: string, from: number, spans: Span[]): string {
  let out = text;
  for (const span of [...spans].sort((a, b) => b.start - a.start)) {
    const start = span.start - from;
    const end = span.end - from;
    if (start >= 0 && end <= out.length) out = `${out.slice(0, start)} ${out.slice(end)}`;
  }
  return out;
}

const TOKEN = /[^\s"'()<>[\]{},;`*]+/g;

/** The file-like tokens of a piece of text, where they stand. */
function filesIn(text: string): Span[] {
  const files: Span[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const end = match.index + match[0].length;
    const spelling = fileLike(match[0], text.slice(end, end + 24));
    if (spelling) files.push({ start: match.index, end, text: spelling });
  }
  return files;
}

/** The spellings of the files a piece of text names. */
export function fileSpellings(text: string): string[] {
  return filesIn(text).map((file) => file.text);
}

/** Whether the clause around `at` places a change in an earlier turn (and does not repeat it). */
function recapAt(sentence: string, at: number): boolean {
  const clause = clauseAt(sentence, at);
  return RECAP.test(clause) && !REPEAT.test(clause);
}

/**
 * A time or origin outside the chat (`introduced in src/a.ts by commit abc123`, `added to
 * src/a.ts last week`, `changed in v1.2`): the project's history, not a change of this chat.
 */
const HISTORY =
  /\b(?:yesterday|last\s+(?:week|month|year|sprint|release|quarter)|\d+\s+(?:days?|weeks?|months?|years?)\s+ago|(?:by|in)\s+(?:(?:a|an|the|that)\s+)?(?:(?:previous|earlier|last|recent|upstream|later)\s+)?(?:commit|pull\s+request|PR|merge)\b|in\s+v?\d+\.\d+)/i;

/** Whether the part of the clause around `at` between commas (`…, which was added in v1.2`) dates it outside the chat. */
function historyAt(sentence: string, at: number): boolean {
  const clause = clauseBounds(sentence, at);
  const comma = sentence.indexOf(',', at);
  const start = Math.max(clause.start, sentence.lastIndexOf(',', at) + 1);
  const end = comma < 0 ? clause.end : Math.min(clause.end, comma);
  return HISTORY.test(sentence.slice(start, end));
}

/** The clause of `sentence` around `at` (see `CLAUSE`). */
function clauseAt(sentence: string, at: number): string {
  const { start, end } = clauseBounds(sentence, at);
  return sentence.slice(start, end);
}

function clauseBounds(sentence: string, at: number): { start: number; end: number } {
  let start = 0;
  let end = sentence.length;
  for (const boundary of sentence.matchAll(CLAUSE)) {
    if (boundary.index + boundary[0].length <= at) start = boundary.index + boundary[0].length;
    else if (boundary.index >= at) {
      end = boundary.index;
      break;
    }
  }
  return { start, end };
}

/**
 * Before a file, words that make a change said after it no claim: `Neither src/a.ts nor
 * src/b.ts was changed`, `If src/a.ts was updated, …`. (A bare `no` is not one: in "No
 * problem, src/a.ts was updated" it answers, it does not deny.)
 */
const NOT_A_CLAIM_AFTER =
  /\b(neither|nor|if|unless|whether|once|until|whenever|in case|provided|assuming)\b/i;
/**
 * After a passive verb, an agent that is plainly not the writer (`src/a.ts was created by the
 * scaffolder`, `… written by you`, `… by a previous commit`): someone else's change, no claim.
 * Any other agent (`by the refactor`) may be the writer's own work, and keeps the claim.
 */
const ANOTHER_AGENT =
  /^\s+by\s+(?:you|your|the\s+user|someone|somebody|another|other|(?:a|the)\s+(?:previous|earlier|former|original)|(?:a|an|the)\s+(?:[\p{L}-]+\s+)?(?:scaffold(?:er|ing)?|generator|template|codegen|initializer))(?![\p{L}])/iu;
/** A file that holds what the denial is about: `Nothing in src/b.ts was changed`, `no line of x`. */
const DENIED_INSIDE =
  /\b(?:nothing|none|no\s+\p{L}+)\s+(?:else\s+)?(?:in|inside|within|of|from)\s+[`*_"']*$/iu;

/** The claim `sentence` makes about `file`, if any (`others`: the sentence's other files). */
function claimOf(sentence: string, file: Span, others: Span[], verbs: Span[]): MentionedChange | undefined {
  const claim = (said: SaidChange, verb: string, at: number): MentionedChange | undefined =>
    historyAt(sentence, at) ? undefined : { spelling: file.text, said, verb, recap: recapAt(sentence, at) };
  // The token keeps the colon of `src/a.ts: updated`: the annotation starts with it.
  const swallowed = /[.:!?]*$/.exec(sentence.slice(file.start, file.end))?.[0] ?? '';
  const noteFrom = file.end - swallowed.length;
  const note = annotationAfter(sentence.slice(noteFrom));
  const label = (verb: Span) =>
    LABEL_LEAD.test(sentence.slice(0, verb.start)) && LABEL_TAIL.test(sentence.slice(verb.end));
  const before = verbs
    .filter((verb) => verb.end <= file.start && (!afterOnly(verb.text) || label(verb)))
    .at(-1);
  if (before && !note?.whole) {
    const gap = without(sentence.slice(before.end, file.start), before.end, others);
    // `the updated helper from src/a.ts`: the verb describes another noun.
    const adjective = DETERMINER_BEFORE.test(sentence.slice(0, before.start)) && /\p{L}/u.test(gap);
    if (
      gap.length <= 120 &&
      !BREAKER.test(gap) &&
      !adjective &&
      !(fromIsSource(before.text) && /\bfrom\b/i.test(gap))
    ) {
      if (NOT_A_CLAIM.test(leadWords(sentence, before.start))) return undefined;
      // `Added: src/z.ts` and `I added src/z.ts.` name the file as what was added: a new file.
      const added = label(before) || (DIRECT_OBJECT.test(gap) && !ADDED_TO.test(sentence.slice(file.end)));
      const said = added ? statusOf(before.text) : saidOf(before.text);
      const gapHasFile = others.some((other) => other.start >= before.end && other.end <= file.start);
      return claim(placedKind(said, gap, gapHasFile), before.text, before.start);
    }
  }
  if (
    NOT_A_CLAIM_AFTER.test(leadWords(sentence, file.start)) ||
    DENIED_INSIDE.test(sentence.slice(0, file.start))
  )
    return undefined;
  if (note) return note.said ? claim(note.said, note.verb, noteFrom + note.at) : undefined;
  const after = verbs.find((candidate) => candidate.start >= file.end);
  const passive = after ? without(sentence.slice(file.end, after.start), file.end, others) : '';
  if (
    after &&
    ((PASSIVE_GAP.test(passive) && !needsAuxiliary(after.text)) ||
      (AUXILIARY_GAP.test(passive) && HAS_AUXILIARY.test(passive)))
  ) {
    if (ANOTHER_AGENT.test(sentence.slice(after.end))) return undefined;
    if (PRESENT_AUXILIARY.test(passive) && DESCRIBED.test(sentence.slice(after.end))) return undefined;
    return claim(
      STATUS_ENDS.test(sentence.slice(after.end)) ? statusOf(after.text) : saidOf(after.text),
      after.text,
      after.start,
    );
  }
  const end = sentence.indexOf(';', file.end);
  const clause = sentence.slice(sentence.lastIndexOf(';', file.start) + 1, end < 0 ? undefined : end);
  const excepted = exceptedChange(without(sentence.slice(0, file.start), 0, others), clause);
  return excepted ? claim(excepted, '', file.start) : undefined;
}

/** Claims made through a pronoun for a file (`I looked at b.ts and then deleted it`; see `pronounObjects`). */
function pronounClaims(sentence: string, verbs: Span[], files: Span[], previous: string): MentionedChange[] {
  // `made it clear that …` says nothing of a file.
  const usable = verbs.filter((verb) => !afterOnly(verb.text) && verb.text !== 'made');
  return pronounObjects(sentence, usable, files, previous, filesIn(previous)).flatMap(
    ({ verb, spellings, placed }) => {
      if (NOT_A_CLAIM.test(leadWords(sentence, verb.start)) || historyAt(sentence, verb.start)) return [];
      const said = placed ? saidOf(verb.text) : statusOf(verb.text);
      // `removed it from the barrel`, `added it to the exports`: the place changed, not the file.
      if (placed && (said === 'deleted' || said === 'written' || said === 'created')) return [];
      const recap = recapAt(sentence, verb.start);
      return spellings.map((spelling) => ({ spelling, said, verb: verb.text, recap }));
    },
  );
}

/** The claims of one sentence; `previous`, the sentence before it, is where a pronoun may find its file. */
function claimsIn(sentence: string, previous = ''): MentionedChange[] {
  if (sentence.trim().endsWith('?')) return [];
  const files = filesIn(sentence);
  if (files.length === 0 && !previous) return [];
  const verbs: Span[] = [...sentence.matchAll(VERB_PATTERN)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    text: verbText(match[0]),
  }));
  const named = files.flatMap((file) => {
    const claim = claimOf(
      sentence,
      file,
      files.filter((other) => other !== file),
      verbs,
    );
    return claim ? [claim] : [];
  });
  return [...named, ...pronounClaims(sentence, verbs, files, previous)];
}

/** Words on a listed line that make a bare file name no claim (`- src/a.ts: unchanged`). */
const NOT_LISTED_AS_CHANGED =
  /\b(not|never|no|unchanged|untouched|same|read|checked|reviewed|inspected|looked|skipped|kept|left|see|refer|details)\b/i;

/**
 * One line of a change list (a bullet under a `Changes:` heading): its sentence claims, or —
 * with no change verb on the line — every file it names as `changed`, unless the line says
 * otherwise (`unchanged`, `read`, `not` …).
 */
export function listedClaims(line: string): MentionedChange[] {
  const claims = claimsIn(line);
  const verb = [...line.matchAll(VERB_PATTERN)].some((match) => !afterOnly(verbText(match[0])));
  if (claims.length > 0 || verb || NOT_LISTED_AS_CHANGED.test(line)) return claims;
  const recap = recapAt(line, 0);
  return filesIn(line).map((file) => ({ spelling: file.text, said: 'changed', verb: '', recap }));
}

/** A checklist line (a check-mark emoji or `- [x]`, then `src/b.ts`): read like a change-list bullet. */
const CHECKED_LINE = /^\s*(?:[-*+•]\s+)?(?:\u2705|\u2714\ufe0f?|\u2611\ufe0f?|\[x\])\s*(.*\S)\s*$/i;

/**
 * The file changes a reply asserts. The rule: fenced code blocks and URLs are ignored; the
 * bullets of a change list (see `changeBlocks`) are read one per line by `listedClaims` (a
 * file named without a verb is claimed `changed`); the rest of the text is cut into sentences
 * (line breaks, and `.`/`!`/`?` before whitespace); questions are skipped. A file-like token
 * (contains `/`, or `name.ext`) is tied to the nearest change verb before it in the sentence
 * (past tense: created, added, wrote, updated, fixed, deleted, moved, …) unless a reading word
 * (read, checked, left, unchanged, but …) sits between them, or else to a change verb right
 * after it in passive form (`src/a.ts was updated`, `src/a.ts: created`, `src/b.ts no longer
 * exists`). A summary line's change word right after the file (`src/a.ts → updated`,
 * `` `src/z.ts` — added ``, `src/z.ts (new)`; see `annotationAfter`) speaks for that file,
 * over a verb before it when it is the whole remark. `There's a new file, src/z.ts` claims a
 * creation, and a file excepted from a denial (`nothing was changed except src/a.ts`) a
 * change. A verb governed by a negation or intent (not, didn't, will, should, to, if …; see
 * `leadWords` for how far one reaches) is no claim, nor is a change said after a file under
 * `neither`/`nor` or a condition. A verb with a preposition before the file (`added a test to
 * src/a.ts`) claims a content change (`written`); `added` as the file's status (`src/z.ts —
 * added`, `Added: src/z.ts`, `I added src/z.ts.`) claims a new file (see `statusOf`). A verb whose clause places it in an earlier
 * turn (`earlier`, `in turn 1`, `previously` …) is marked as a recap, unless the sentence
 * repeats it now (`again`, `as before`, `as earlier`). Dotfiles (`.env`) and paths under
 * dot-directories (`.github/workflows/ci.yml`) are files like any other. A pronoun after a
 * change verb (`I looked at b.ts and then deleted it`) claims the change of the file it
 * unambiguously stands for (see `pronounObjects`).
 */
export function mentionedChanges(text: string): MentionedChange[] {
  const prose = claimProse(text);
  const lines = prose.split('\n');
  const claims: MentionedChange[] = [];
  const listed = new Set<number>();
  for (const block of changeBlocks(prose)) {
    for (let index = block.first; index <= block.last; index++) listed.add(index);
    for (const bullet of block.bullets) claims.push(...listedClaims(bullet));
  }
  for (const [index, line] of lines.entries()) {
    if (listed.has(index)) continue;
    const checked = CHECKED_LINE.exec(line);
    // A change heading with its list on the same line: `Changes: src/a.ts, src/b.ts`.
    const heading = CHANGE_HEADING.exec(line);
    // The whole line is read, so the heading's own verb (`Files modified:`) keeps its kind.
    const inline = heading?.[1] && heading[2] && !NOTHING_CHANGED.test(heading[2]) ? line : undefined;
    const entries = checked?.[1] ?? inline;
    if (entries === undefined) continue;
    listed.add(index);
    claims.push(...listedClaims(entries));
  }
  const rest = lines.map((line, index) => (listed.has(index) ? '' : line)).join('\n');
  const sentences = sentencesOf(rest);
  claims.push(...sentences.flatMap((sentence, index) => claimsIn(sentence, sentences[index - 1] ?? '')));
  return claims;
}
