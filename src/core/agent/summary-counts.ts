import { MULTIPLIERS, numberWordValue, TENS, UNITS } from '../number-words.js';
import { sameType } from '../type-words.js';
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

/**
 * Counts the summary states that the verified items do not reach: "Created 2 suites" with one
 * distinct suite backed (a resource claimed twice is one item), or "with 5 tests" with none.
 * A word is judged when it names a type the run knows: one a verified item has, or one of
 * `types` (what the agent claimed, the entity types it knows, e.g. an API's collections);
 * other counted words ("3 seconds", "2 retries") are not types. Per-parent counts ("3 tests
 * each") are not totals, and a count of what was read ("found 3 projects") is not a claim.
 */
export function overCounts(
  summary: string,
  verified: readonly VerifiedItem[],
  types: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  for (const match of summary.matchAll(COUNT)) {
    if (match[3]) continue;
    const stated = numberWordValue(match[1] as string);
    if (stated === undefined || stated === 0) continue;
    const word = match[2] as string;
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
