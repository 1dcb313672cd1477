const IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  statuses: 'status',
  analyses: 'analysis',
  data: 'data',
  media: 'media',
};

/** Words whose singular ends in -ie (`movies` → `movie`, not `movy`), and words the same in both. */
const IE_SINGULARS = new Set([
  'movie',
  'cookie',
  'zombie',
  'selfie',
  'rookie',
  'hippie',
  'calorie',
  'genie',
  'prairie',
  'sortie',
  'smoothie',
  'brownie',
  'goalie',
  'newbie',
  'freebie',
  'bookie',
  'pie',
  'tie',
  'lie',
  'die',
  'auntie',
  'eyrie',
  'specie',
  'pixie',
  'hoodie',
  'techie',
  'foodie',
  'birdie',
  'cutie',
  'veggie',
  'budgie',
]);
const INVARIANT = new Set(['series', 'species', 'news']);

/**
 * `make(name)`, remembered: a run asks for the same few names for every item (issue 22: ~1 ms
 * per 30 items at 220). Bounded, as a long-lived server sees new names.
 */
function remembered<T>(make: (name: string) => T): (name: string) => T {
  const known = new Map<string, T>();
  return (name) => {
    let value = known.get(name);
    if (value === undefined) {
      value = make(name);
      if (known.size >= 4096) known.clear();
      known.set(name, value);
    }
    return value;
  };
}

/**
 * A name in lower case with its camelCase word breaks kept as spaces: `testCases` → `test cases`,
 * `user-groups` stays. Lower-casing `testCases` alone would make it one word (`testcases`) that no
 * longer names a `test case`: the planner matched `3 test cases` to `/testCases`, and the verdict
 * then saw a `testcase` it was not asked for.
 */
export const spelledAsWords = remembered((name) =>
  name
    .trim()
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .toLowerCase(),
);

/**
 * `suites` → `suite`, `categories` → `category`, `boxes` → `box`, `movies` → `movie`; singular
 * words stay. A name of several words singularises its last one (`order-statuses` →
 * `order-status`, `testCases` → `test case`).
 */
export const singular = remembered((name) => {
  const words = spelledAsWords(name);
  const at = words.search(/[^\s_\-./]*$/);
  return at > 0 ? words.slice(0, at) + singularWord(words.slice(at)) : singularWord(words);
});

/** One lower-case word's singular. */
function singularWord(lower: string): string {
  if (Object.hasOwn(IRREGULAR, lower)) return IRREGULAR[lower] as string;
  if (INVARIANT.has(lower)) return lower;
  if (lower.endsWith('ies') && IE_SINGULARS.has(lower.slice(0, -1))) return lower.slice(0, -1);
  if (/[^aeiou]ies$/.test(lower)) return `${lower.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.endsWith('s') && !lower.endsWith('ss') && !lower.endsWith('us') && !lower.endsWith('is'))
    return lower.slice(0, -1);
  return lower;
}

/**
 * A type name as singular words: `test_cases` → [test, case], `User Stories` → [user, story].
 * Frozen: every caller shares the array.
 */
export const typeWords = remembered((name): readonly string[] =>
  Object.freeze(
    spelledAsWords(name)
      .split(/[\s_\-./]+/)
      .filter(Boolean)
      .map(singularWord),
  ),
);

/** Head nouns that only say "one of": in `test case` the thing is the test. */
const GENERIC_HEADS = new Set(['case', 'item', 'entry', 'record', 'object', 'instance', 'thing', 'row']);

/** Whether a singular word only says "one of" what precedes it (`case` in `test case`). */
export const isGenericHead = (word: string) => GENERIC_HEADS.has(word);

/**
 * True when a claimed type names the actual one: singular/plural (`suite`/`suites`), spelling
 * (`test case`/`test_cases`), a longer phrase whose head noun is the collection (`test suite`
 * → `suites`) or whose head only says "one of" (`test case` → `tests`), or the head noun of a
 * compound collection (`suite` → `test_suites`). A qualifier is not the thing: a `test` is
 * not a `test_suite`, a `test suite` is not a `test`, and a `milestone` is not a `test`.
 */
export function sameType(claimed: string, actual: string): boolean {
  const said = typeWords(claimed);
  const is = typeWords(actual);
  if (said.length === 0 || is.length === 0) return false;
  if (said.join(' ') === is.join(' ')) return true;
  const head = said.at(-1) as string;
  if (is.length === 1)
    return head === is[0] || (GENERIC_HEADS.has(head) && said.slice(0, -1).includes(is[0] as string));
  if (said.length === 1) return said[0] === is.at(-1);
  return false;
}
