import { tokenize } from '../../packs/records/bm25.js';

const STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'in',
  'on',
  'for',
  'and',
  'or',
  'how',
  'do',
  'i',
  'we',
  'is',
  'it',
  'with',
  'my',
  'our',
  'what',
  'should',
  'can',
]);

/** The words of a goal worth searching for: tokenized like the index, stopwords and 1-letter words out. */
export function goalTerms(goal: string): string[] {
  return [...new Set(tokenize(goal).filter((term) => !STOPWORDS.has(term) && term.length > 1))];
}

/** GOVERNS paths earlier digests of this session already established (warm start). */
export function establishedPaths(priorDigests: string[]): Set<string> {
  return new Set(
    priorDigests.flatMap((digest) =>
      [...digest.matchAll(/^- (\S+\.md) \[/gm)].map((match) => match[1] as string),
    ),
  );
}
