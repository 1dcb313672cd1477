const IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  statuses: 'status',
  analyses: 'analysis',
  data: 'data',
  media: 'media',
};

/** `suites` → `suite`, `categories` → `category`, `boxes` → `box`; singular words stay. */
export function singular(word: string): string {
  const lower = word.toLowerCase().trim();
  if (IRREGULAR[lower]) return IRREGULAR[lower] as string;
  if (/[^aeiou]ies$/.test(lower)) return `${lower.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.endsWith('s') && !lower.endsWith('ss') && !lower.endsWith('us') && !lower.endsWith('is'))
    return lower.slice(0, -1);
  return lower;
}

/** A type name as singular words: `test_cases` → [test, case], `User Stories` → [user, story]. */
export function typeWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_\-./]+/)
    .filter(Boolean)
    .map(singular);
}

/**
 * True when two type names name the same kind of thing: singular/plural (`suite`/`suites`),
 * spelling (`test case`/`test_cases`), or a head noun (`test case` → `tests`, `test` →
 * `test_cases`). Two different nouns never match (`milestone` vs `tests`).
 */
export function sameType(a: string, b: string): boolean {
  const left = typeWords(a);
  const right = typeWords(b);
  if (left.length === 0 || right.length === 0) return false;
  if (left.join(' ') === right.join(' ')) return true;
  if (left.length === 1) return right.includes(left[0] as string);
  if (right.length === 1) return left.includes(right[0] as string);
  return false;
}
