import { MULTIPLIERS, TENS, UNITS } from '../../core/number-words.js';

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
