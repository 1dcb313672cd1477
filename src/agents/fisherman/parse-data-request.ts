const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
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
  dozen: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
};

export interface DataRequest {
  count: number;
  type: string;
  children?: { count: number; type: string };
  /** "5 tests in suite 101": the existing parent the top-level items go into. */
  parent?: { type: string; id: string };
}

function count(word: string): number | undefined {
  const lower = word.toLowerCase().replace(/^(a|one)\s+/, '');
  if (/^\d+$/.test(lower)) return Number(lower);
  return NUMBER_WORDS[lower];
}

// Longest words first so "fifteen" is not read as "five" + garbage.
const WORDS = Object.keys(NUMBER_WORDS).sort((a, b) => b.length - a.length);
const NUMBER = `(\\d+|(?:(?:a|one)\\s+)?(?:hundred|dozen)|${WORDS.join('|')})`;
const TYPE = '([a-z][a-z _-]*?)';
const PATTERN = new RegExp(
  `^\\s*${NUMBER}\\s+${TYPE}(?:\\s+with\\s+${NUMBER}\\s+${TYPE}(?:\\s+(?:each|in it|in each|apiece))?)?` +
    `(?:\\s+in\\s+(?:the\\s+)?${TYPE}\\s+#?([A-Za-z0-9][A-Za-z0-9._~-]*))?\\s*\\.?\\s*$`,
  'i',
);

/**
 * The deterministic tier's grammar: "N <type> [with M <child type> each | in it]
 * [in <parent type> <id>]". Anything else returns undefined (the model tier may take it).
 */
export function parseDataRequest(text: string): DataRequest | undefined {
  const match = PATTERN.exec(text);
  if (!match) return undefined;
  const parentCount = count(match[1] as string);
  const type = (match[2] as string).trim();
  // "3 tests in suite" (no id) would otherwise read as a type called "tests in suite".
  if (parentCount === undefined || parentCount < 1 || parentCount > 1000 || /\bin\b/i.test(type))
    return undefined;
  const request: DataRequest = { count: parentCount, type };
  if (match[3] && match[4]) {
    const childCount = count(match[3]);
    const childType = match[4].trim();
    if (childCount === undefined || childCount < 1 || childCount > 1000 || /\bin\b/i.test(childType))
      return undefined;
    request.children = { count: childCount, type: childType };
  }
  if (match[5] && match[6]) request.parent = { type: match[5].trim(), id: match[6] };
  return request;
}
