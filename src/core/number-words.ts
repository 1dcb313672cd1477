/** English number words, one place for every reader of counts (requests, summaries, contracts). */
export const UNITS: Readonly<Record<string, number>> = {
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

export const TENS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

export const MULTIPLIERS: Readonly<Record<string, number>> = { dozen: 12, hundred: 100 };

/** The value of one number word ("two", "twenty", "dozen"), or of digits; undefined otherwise. "zero" is no count. */
export function numberWordValue(word: string): number | undefined {
  if (/^\d{1,9}$/.test(word)) return Number(word);
  const lower = word.toLowerCase();
  if (lower === 'zero') return undefined;
  return UNITS[lower] ?? TENS[lower] ?? MULTIPLIERS[lower];
}
