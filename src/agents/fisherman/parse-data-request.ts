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
};

export interface DataRequest {
  count: number;
  type: string;
  children?: { count: number; type: string };
}

function count(word: string): number | undefined {
  const lower = word.toLowerCase();
  if (/^\d+$/.test(lower)) return Number(lower);
  return NUMBER_WORDS[lower];
}

const PATTERN =
  /^\s*(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten)\s+([a-z][a-z _-]*?)(?:\s+with\s+(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten)\s+([a-z][a-z _-]*?)(?:\s+(?:each|in it|in each|apiece))?)?\s*\.?\s*$/i;

/**
 * The deterministic tier's grammar: "N <type> [with M <child type> each | in it]".
 * Anything else returns undefined (the model tier may take it).
 */
export function parseDataRequest(text: string): DataRequest | undefined {
  const match = PATTERN.exec(text);
  if (!match) return undefined;
  const parentCount = count(match[1] as string);
  if (parentCount === undefined || parentCount < 1 || parentCount > 1000) return undefined;
  const request: DataRequest = { count: parentCount, type: (match[2] as string).trim() };
  if (match[3] && match[4]) {
    const childCount = count(match[3]);
    if (childCount === undefined || childCount < 1 || childCount > 1000) return undefined;
    request.children = { count: childCount, type: match[4].trim() };
  }
  return request;
}
