import { tokenize } from '../../packs/records/bm25.js';

/**
 * The share of a goal's terms a record must contain, as whole words, to govern it — one floor
 * for both tiers (with and without a model). Retrieval finds candidates by ANY term (recall,
 * BM25 probes), so "create hello.txt" reached a credentials procedure through "create" alone
 * and the scout named it GOVERNING, with its `psql` line as a command (issue 18). Half the
 * terms: a two-word goal needs one, a three-word goal two.
 */
export const RELEVANCE_FLOOR = 0.5;

export interface Relevance {
  path: string;
  /** The goal's terms the record contains. */
  matched: string[];
  share: number;
}

/**
 * The terms relevance is measured on: the goal's, less the words of the repository it names
 * (`acme/shop`) — the repo is resolved on its own (REPO) and names no task.
 */
export function relevanceTerms(terms: string[], repo: string | undefined): string[] {
  const named = new Set(tokenize(repo ?? ''));
  const task = terms.filter((term) => !named.has(term));
  return task.length > 0 ? task : terms;
}

/** How much of the goal a read record covers. A goal without terms is covered by nothing. */
export function relevanceOf(terms: string[], path: string, content: string): Relevance {
  const words = new Set(tokenize(content));
  const matched = terms.filter((term) => words.has(term));
  return { path, matched, share: terms.length === 0 ? 0 : matched.length / terms.length };
}

/** The read records split at the floor: `above` may govern, `below` may not. */
export function splitAtFloor(
  terms: string[],
  read: { path: string; content: string }[],
): { above: Set<string>; below: Relevance[] } {
  const above = new Set<string>();
  const below: Relevance[] = [];
  for (const record of read) {
    const relevance = relevanceOf(terms, record.path, record.content);
    if (relevance.share >= RELEVANCE_FLOOR) above.add(record.path);
    else below.push(relevance);
  }
  return { above, below };
}

/**
 * UNREACHABLE lines for what fell below the floor: each record with the terms it matched,
 * then the queries tried — so a NOT FOUND says where the scout looked, not only that it failed.
 */
export function belowFloorLines(terms: string[], below: Relevance[], queries: string[]): string[] {
  if (below.length === 0) return [];
  return [
    ...below.map(
      (relevance) =>
        `${relevance.path} — below the relevance floor: matched ${relevance.matched.length} of ${terms.length} goal terms (${relevance.matched.join(', ') || 'none'}; ${Math.round(RELEVANCE_FLOOR * 100)}% needed), so it does not govern`,
    ),
    `queries tried: ${queries.join('; ')}`,
  ];
}
