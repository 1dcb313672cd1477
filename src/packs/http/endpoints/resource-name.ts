const IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  statuses: 'status',
  analyses: 'analysis',
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

/** True when two resource words name the same type (`suite` / `suites`, `test case` / `test_cases`). */
export function sameResource(a: string, b: string): boolean {
  const norm = (word: string) => singular(word.replace(/[\s_-]+/g, '_'));
  return norm(a) === norm(b);
}
