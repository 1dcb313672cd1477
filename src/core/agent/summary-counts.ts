import { sameType } from '../type-words.js';
import type { VerifiedItem } from './ending.js';

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  twenty: 20,
  fifty: 50,
  hundred: 100,
};
const COUNT =
  /\b(\d{1,6}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|fifty|hundred)\s+(?:new\s+)?([a-z][a-z_-]{1,40})\b(\s+(?:each|per|apiece|in\s+each|under\s+each|for\s+each))?/gi;

/**
 * Counts the summary states that the verified items do not reach: "Created 2 suites" with one
 * distinct suite backed (a resource claimed twice is one item). Only types that some verified
 * item has are judged; per-parent counts ("3 tests each") are not totals.
 */
export function overCounts(summary: string, verified: readonly VerifiedItem[]): string[] {
  const problems: string[] = [];
  for (const match of summary.matchAll(COUNT)) {
    if (match[3]) continue;
    const raw = (match[1] as string).toLowerCase();
    const stated = /^\d+$/.test(raw) ? Number(raw) : (NUMBER_WORDS[raw] as number);
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
