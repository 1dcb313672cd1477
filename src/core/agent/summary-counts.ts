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

/**
 * Counts the summary states that the verified items do not reach: "Created 2 suites" with one
 * distinct suite backed (a resource claimed twice is one item). Only types that some verified
 * item has are judged; per-parent counts ("3 tests each") are not totals.
 */
export function overCounts(summary: string, verified: readonly VerifiedItem[]): string[] {
  const problems: string[] = [];
  for (const match of summary.matchAll(COUNT)) {
    if (match[3]) continue;
    const stated = numberWordValue(match[1] as string);
    if (stated === undefined) continue;
    const word = match[2] as string;
    const ofType = verified.filter((item) => typeof item.type === 'string' && sameType(item.type, word));
    if (ofType.length === 0) continue;
    const distinct = new Set(ofType.map((item) => String(item.resource ?? item.target))).size;
    if (stated > distinct)
      problems.push(
        `the summary counts ${stated} ${word}, but ${distinct} distinct ${distinct === 1 ? 'one is' : 'ones are'} backed by evidence`,
      );
  }
  return problems;
}
