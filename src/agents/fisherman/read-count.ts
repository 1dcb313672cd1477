const UNITS: Record<string, number> = {
  zero: 0,
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
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const MULTIPLIERS: Record<string, number> = { dozen: 12, hundred: 100 };
/** Counts nobody can plan for: "some", "a few", "a couple of", "no". */
const VAGUE = new Set(
  'some few several many couple lot lots bunch handful pair number multiple various any more numerous no none'.split(
    ' ',
  ),
);

export type ReadCount = { value: number; words: number } | 'vague' | undefined;

const own = (table: Record<string, number>, word: string | undefined) =>
  word !== undefined && Object.hasOwn(table, word) ? table[word] : undefined;

/** `twenty`, `twenty one`, `twenty-one`: a number below a hundred and how many words it took. */
function belowHundred(words: readonly string[]): { value: number; words: number } | undefined {
  const [first, second] = words;
  const split = first?.split('-');
  if (split?.length === 2) {
    const tens = own(TENS, split[0]);
    const unit = own(UNITS, split[1]);
    return tens !== undefined && unit !== undefined && unit >= 1 && unit <= 9
      ? { value: tens + unit, words: 1 }
      : undefined;
  }
  const tens = own(TENS, first);
  if (tens !== undefined) {
    const unit = own(UNITS, second);
    return unit !== undefined && unit >= 1 && unit <= 9
      ? { value: tens + unit, words: 2 }
      : { value: tens, words: 1 };
  }
  const unit = own(UNITS, first);
  return unit === undefined ? undefined : { value: unit, words: 1 };
}

/**
 * The count a request opens with, from lower-case words: digits, number words up to
 * ninety-nine, `a`/`an`, `a dozen`, `half a dozen`, `two hundred`, `3 dozen`. `vague` for
 * "some", "a few", "a couple of"…; undefined when the words are no count at all.
 */
export function readCount(words: readonly string[]): ReadCount {
  const [first, second, third] = words;
  if (first === undefined) return undefined;
  if (first === 'half' && (second === 'a' || second === 'an') && third === 'dozen')
    return { value: 6, words: 3 };
  if (first === 'a' || first === 'an') {
    const multiplier = own(MULTIPLIERS, second);
    if (multiplier !== undefined) return { value: multiplier, words: 2 };
    if (second !== undefined && VAGUE.has(second)) return 'vague';
    return { value: 1, words: 1 };
  }
  if (VAGUE.has(first)) return 'vague';
  const base = /^\d+$/.test(first) ? { value: Number(first), words: 1 } : belowHundred(words);
  if (!base) return undefined;
  const multiplier = own(MULTIPLIERS, words[base.words]);
  return multiplier === undefined ? base : { value: base.value * multiplier, words: base.words + 1 };
}
