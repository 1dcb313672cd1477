import { MULTIPLIERS, numberWordValue, TENS, UNITS } from '../number-words.js';
import { sameType, typeWords } from '../type-words.js';
import type { VerifiedItem } from './ending.js';

// Longest words first, so "fifteen" is not read as "fif…"; digits or any number word, then a noun.
const WORDS = [...Object.keys(UNITS), ...Object.keys(TENS), ...Object.keys(MULTIPLIERS)].sort(
  (x, y) => y.length - x.length,
);
const COUNT = new RegExp(
  `\\b(\\d{1,6}|${WORDS.join('|')})\\s+(?:new\\s+)?([a-z][a-z_-]{1,40})\\b(\\s+(?:each|per|apiece|in\\s+each|under\\s+each|for\\s+each))?`,
  'gi',
);

// A count said of what the run read, not made ("found 3 projects", "there were 2 suites").
const READ_BEFORE =
  /\b(?:found|read|listed|saw|seen|fetched|looked\s+up|existing|already\s+(?:had|has|have)|there\s+(?:are|were|was|is))\s+(?:\w+\s+){0,2}$/i;

// "a milestone" as a thing made: the article right after a verb of making ("Created a suite"),
// or after "and" / a comma in a sentence that makes things ("Created 2 suites and a milestone").
const ARTICLE = /\b(an?)\s+(?:new\s+)?([a-z][a-z_-]{1,40})\b/gi;
const MADE = String.raw`\b(?:created|made|added|built|set\s+up|inserted|generated)`;
const MADE_VERB = new RegExp(String.raw`${MADE}\b`, 'i');
const RIGHT_AFTER_VERB = new RegExp(String.raw`${MADE}(?:\s+(?:also|too))?\s*$`, 'i');
const LISTED = /(?:\band|,)\s*$/i;

/** The text of the summary's sentence before `at`. */
function sentenceBefore(summary: string, at: number): string {
  const before = summary.slice(0, at);
  const end = Math.max(before.lastIndexOf('. '), before.lastIndexOf('; '), before.lastIndexOf('\n'));
  return before.slice(end + 1);
}

// One or two words after a counted noun, each a word the COUNT pattern could count.
const NEXT_WORDS = [/^(?:\s+[a-z][a-z_-]{1,40}\b){2}/i, /^\s+[a-z][a-z_-]{1,40}\b/i];
const PER_PARENT = /^\s+(?:each|per|apiece|in\s+each|under\s+each|for\s+each)\b/i;

/**
 * The counted noun, with the one or two words after it when together they spell a known type:
 * "2 user groups" counts user groups, not the app's users. Undefined for a per-parent count
 * ("3 tests each", "2 user groups each").
 */
function countedType(
  summary: string,
  match: readonly (string | undefined)[] & { index?: number },
  known: ReadonlySet<string>,
): string | undefined {
  if (match[3]) return undefined;
  const word = match[2] as string;
  const after = summary.slice((match.index ?? 0) + (match[0] as string).length);
  for (const pattern of NEXT_WORDS) {
    const next = pattern.exec(after)?.[0];
    if (next === undefined) continue;
    const phrase = `${word}${next}`.replace(/\s+/g, ' ');
    if (known.has(typeWords(phrase).join(' ')))
      return PER_PARENT.test(after.slice(next.length)) ? undefined : phrase;
  }
  return word;
}

/** Whether "a <word>" at `at` is said of a thing the run made, not a place or purpose ("in a suite"). */
function madeWithArticle(summary: string, at: number): boolean {
  const before = sentenceBefore(summary, at);
  if (RIGHT_AFTER_VERB.test(before)) return true;
  return LISTED.test(before) && MADE_VERB.test(before);
}

/**
 * Counts the summary states that the verified items do not reach: "Created 2 suites" with one
 * distinct suite backed (a resource claimed twice is one item), or "with 5 tests" with none.
 * A word is judged when it names a type the run knows: one a verified item has, or one of
 * `types` (what the agent claimed, the entity types it knows, e.g. an API's collections);
 * other counted words ("3 seconds", "2 retries") are not types. Per-parent counts ("3 tests
 * each") are not totals, and a count of what was read ("found 3 projects") is not a claim.
 * "a milestone" right after a verb of making, or listed after one ("Created 2 suites and a
 * milestone"), counts one; "in a suite", "for a release" count nothing.
 */
export function overCounts(
  summary: string,
  verified: readonly VerifiedItem[],
  types: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  const articles = [...summary.matchAll(ARTICLE)]
    .filter((match) => madeWithArticle(summary, match.index ?? 0))
    .map((match) => Object.assign([match[0], '1', match[2], undefined], { index: match.index }));
  const known = new Set(
    [...types, ...verified.map((item) => item.type)]
      .filter((type): type is string => typeof type === 'string')
      .map((type) => typeWords(type).join(' ')),
  );
  for (const match of [...summary.matchAll(COUNT), ...articles]) {
    const word = countedType(summary, match, known);
    if (word === undefined) continue;
    const stated = numberWordValue(match[1] as string);
    if (stated === undefined || stated === 0) continue;
    const ofType = verified.filter((item) => typeof item.type === 'string' && sameType(item.type, word));
    if (ofType.length === 0 && !types.some((type) => sameType(word, type) || sameType(type, word))) continue;
    if (READ_BEFORE.test(summary.slice(Math.max(0, (match.index ?? 0) - 60), match.index))) continue;
    const distinct = new Set(ofType.map((item) => String(item.resource ?? item.target))).size;
    if (stated > distinct)
      problems.push(
        distinct === 0
          ? `the summary counts ${stated} ${word}, but none is backed by evidence`
          : `the summary counts ${stated} ${word}, but ${distinct} distinct ${distinct === 1 ? 'one is' : 'ones are'} backed by evidence`,
      );
  }
  return problems;
}
