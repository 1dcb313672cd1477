import type { LedgerEntry } from '../../core/ledger/entry.js';
import { canonicalOf, type TurnFacts } from './flag-false-statements.js';

/**
 * Search claims: `I grepped src/ for TODO`, `I searched a.ts for the export`, `I grepped for
 * TODO in src/`, `after grepping src/`, `Grepped src/ for TODO.`. A search of a file or a
 * folder is a read claim of it (see `readClaimFlags`), with a folder allowed, and is backed by
 * a search that covered it (an `fs_grep` of it, of a folder above it or of one inside it) or
 * by any evidence on a file in it (an `fs_read`, a write), this turn or an earlier one.
 */

const SEARCHED = '(?:grepped|rip-?grepped|searched)';
/** Where the object stands after the verb: `through`, `in`, `across`, `within`, `the file`. */
const BEFORE_PATH = String.raw`(?:(?:through|in|within|across|inside|over)\s+)?(?:both\s+)?(?:the\s+)?(?:file\s+|folder\s+|directory\s+)?`;
/** `for TODO`, `for uses of foo`: what was searched for, before `in X`; no `and`/`then`, which start another verb. */
const SEARCHED_FOR = String.raw`for\s+(?:(?!\b(?:and|then|but|so)\b)[^,;:]){1,80}?\s+(?:in|within|across|inside|under|throughout)\s+(?:both\s+)?(?:the\s+)?(?:file\s+|folder\s+|directory\s+)?`;
const PATH = '(`?[^\\s`,;()]+`?)';
const SUBJECT = String.raw`(?:I|I've|I\s+have|we|we've)\s+(?:also\s+|first\s+|then\s+|quickly\s+|carefully\s+)?`;
const GERUND = String.raw`(?:after|while|when|by)\s+(?:grepping|rip-?grepping|searching)`;

/** The search phrases, each with its path in a group (read as `READ_PHRASES` are). */
export const SEARCH_PHRASES = [
  new RegExp(
    String.raw`(?:\b${SUBJECT}${SEARCHED}|\b${GERUND}|^\s*(?:[-*\u2022]\s*)?(?:(?:also|then|first)\s+)?${SEARCHED})\s+(?:${SEARCHED_FOR}|${BEFORE_PATH})${PATH}`,
    'gi',
  ),
];

/** The paths this turn's successful `fs_grep` calls searched, as spelled in the calls (`.` when none was given). */
export function searchedPaths(entries: readonly LedgerEntry[]): string[] {
  const paths: string[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'tool_call' || entry.outcome !== 'ok' || entry.data.tool !== 'fs_grep') continue;
    const input = entry.data.input as { path?: unknown } | undefined;
    paths.push(
      typeof input?.path === 'string' ? input.path : searchedPathOf(String(entry.data.target ?? '')),
    );
  }
  return paths;
}

/** The path of an `fs_grep` target (`path:pattern`, as the tool names its calls). */
export function searchedPathOf(target: string): string {
  const colon = target.indexOf(':');
  return colon < 0 ? target : target.slice(0, colon) || '.';
}

/** Whether one path is the other or lies inside it (the root `.` holds every path). */
function within(inner: string, outer: string): boolean {
  return outer === '.' || inner === outer || inner.startsWith(`${outer}/`);
}

/** The canonical paths of spellings; those outside the project are left out. */
async function canonicals(spellings: readonly string[], facts: TurnFacts): Promise<string[]> {
  const paths: string[] = [];
  for (const spelling of spellings) {
    const resolved = await canonicalOf(spelling, facts);
    if (!('outside' in resolved)) paths.push(resolved.canonical);
  }
  return paths;
}

/**
 * Whether the ledger backs a search claim of `canonical` (a file or a folder): a search that
 * covered it or lies inside it, or evidence on it or on a file inside it, this turn or earlier.
 */
export async function searchBacked(canonical: string, facts: TurnFacts): Promise<boolean> {
  const searched = await canonicals(
    [...(facts.searched ?? []), ...facts.earlier.flatMap((turn) => turn.searched ?? [])],
    facts,
  );
  if (searched.some((path) => within(canonical, path) || within(path, canonical))) return true;
  const touched = [
    ...facts.histories.keys(),
    ...facts.changes.flatMap((row) => (row.from ? [row.path, row.from] : [row.path])),
    ...(await canonicals(
      facts.earlier.flatMap((turn) => turn.read ?? []),
      facts,
    )),
  ];
  return touched.some((path) => within(path, canonical));
}
