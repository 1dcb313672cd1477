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
 * True when a claimed type names the actual one: singular/plural (`suite`/`suites`), spelling
 * (`test case`/`test_cases`), a person's longer phrase for a one-word collection (`test case`
 * → `tests`), or the head noun of a compound collection (`suite` → `test_suites`). A
 * qualifier is not the thing: `test` is not a `test_suite`, and `milestone` is not a `test`.
 */
export function sameType(claimed: string, actual: string): boolean {
  const said = typeWords(claimed);
  const is = typeWords(actual);
  if (said.length === 0 || is.length === 0) return false;
  if (said.join(' ') === is.join(' ')) return true;
  if (is.length === 1) return said.includes(is[0] as string);
  if (said.length === 1) return said[0] === is.at(-1);
  return false;
}
