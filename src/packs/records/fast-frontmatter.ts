// The YAML parser was ~60% of an index build. Most frontmatter is a handful of `key: value`
// lines with flow lists, which this reads directly; anything else — quotes, comments, block
// lists, indentation, anchors, duplicate keys, or a value the YAML core schema would turn into
// a number, boolean or null — answers undefined and goes to the real parser. What this
// accepts it returns exactly as `yaml` would (a differential test holds it to that).

const KEY = /^[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*$/;
// A plain scalar with nothing YAML treats specially: no leading indicator, no `: `, no ` #`,
// no quotes, brackets, braces or commas (so it reads the same inside a flow list).
const SCALAR = /^[A-Za-z0-9_.(/][A-Za-z0-9_.()/@+-]*(?: [A-Za-z0-9_.()/@+-]+)*$/;
// Core-schema values that are not strings (yaml 2.x, schema "core"): left to the parser.
// One pattern, each alternative anchored as a whole: null, bool, int, octal, hex, inf/nan,
// exponent float, float. One test per key and scalar instead of eight, a closure and a `some`:
// an index build runs it for every value of every record, mostly cold (issue 22).
export const TYPED = new RegExp(
  `^(?:${[
    '(?:~|[Nn]ull|NULL)?',
    '(?:[Tt]rue|TRUE|[Ff]alse|FALSE)',
    '[-+]?[0-9]+',
    '0o[0-7]+',
    '0x[0-9a-fA-F]+',
    '(?:[-+]?\\.(?:inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN)',
    '[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)[eE][-+]?[0-9]+',
    '[-+]?(?:\\.[0-9]+|[0-9]+\\.[0-9]*)',
  ].join('|')})$`,
);

/**
 * Whether TYPED can match `text`: every alternative but null's empty one starts with `~`, `.`,
 * `+`, `-`, a digit or one of `NnTtFf`, so a word starting with any other letter (most keys and
 * values) skips the test. The same answer as TYPED.test, one character code instead of a match
 * (a first query runs this ~30,000 times, mostly before the code is optimised; issue 22).
 */
export function typed(text: string): boolean {
  const first = text.charCodeAt(0);
  // a–z and A–Z but n, t, f, N, T, F; and `_`, `(`, `/` (SCALAR's other first characters).
  const plainStart =
    (first >= 97 && first <= 122 && first !== 110 && first !== 116 && first !== 102) ||
    (first >= 65 && first <= 90 && first !== 78 && first !== 84 && first !== 70) ||
    first === 95 ||
    first === 40 ||
    first === 47;
  return !plainStart && TYPED.test(text);
}

// Security: `__proto__` as a key would set a prototype on assignment; the parser path keeps it as data.
const usableKey = (key: string) => key !== '__proto__' && !typed(key);

function scalar(text: string): string | undefined {
  if (!SCALAR.test(text) || typed(text)) return undefined;
  return text;
}

/** `[a, b c, d]` → its items, or undefined when it is not that simple. */
function flowList(text: string): string[] | undefined {
  if (!text.startsWith('[') || !text.endsWith(']')) return undefined;
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  // Indexed, not for-of: cold code allocates an iterator result per step (see parse-record.ts).
  const items = inner.split(',');
  for (let index = 0; index < items.length; index++) {
    const item = scalar((items[index] as string).trim());
    if (item === undefined) return undefined;
    items[index] = item;
  }
  return items;
}

/** `{}` or `{ store: [ids], other: [ids] }` → the map, or undefined. */
function flowMap(text: string): Record<string, string[]> | undefined {
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  const inner = text.slice(1, -1).trim();
  const map: Record<string, string[]> = {};
  if (inner === '') return map;
  const pair = /^([A-Za-z_][A-Za-z0-9_-]*): +(\[[^\][{}]*\]) *(?:, *|$)/;
  let rest = inner;
  while (rest !== '') {
    const match = pair.exec(rest);
    if (!match) return undefined;
    const key = match[1] as string;
    const list = flowList(match[2] as string);
    if (list === undefined || Object.hasOwn(map, key) || !usableKey(key)) return undefined;
    map[key] = list;
    rest = rest.slice(match[0].length);
  }
  // A trailing comma (`{ a: [x], }`) ends the loop on an empty rest: leave it to the parser.
  return /, *$/.test(inner) ? undefined : map;
}

/** The frontmatter as data when it is plain `key: value` lines, else undefined (use the parser). */
export function fastFrontmatter(yamlText: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  const lines = yamlText.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.trim() === '') continue;
    const colon = line.indexOf(': ');
    if (colon <= 0) return undefined;
    const key = line.slice(0, colon);
    if (!KEY.test(key) || !usableKey(key) || Object.hasOwn(data, key)) return undefined;
    const raw = line.slice(colon + 2).trim();
    const value = raw.startsWith('[') ? flowList(raw) : raw.startsWith('{') ? flowMap(raw) : scalar(raw);
    if (value === undefined) return undefined;
    data[key] = value;
  }
  return data;
}

/**
 * How many values `plainFrontmatter` would walk in what `fastFrontmatter` returned (the map,
 * each value, each list item, each links list and its items). That output is already plain —
 * strings, lists of strings, a map of lists, no `__proto__` key, three levels deep — so a
 * build need not copy it; only the node cap (a 256 KiB flow list holds 100,000 items) is left
 * to check, and over it the copy runs and refuses it with its own message.
 */
export function fastFrontmatterNodes(data: Record<string, unknown>): number {
  let nodes = 1;
  for (const key in data) {
    const value = data[key];
    nodes += 1;
    if (Array.isArray(value)) nodes += value.length;
    else if (typeof value === 'object' && value !== null)
      for (const store in value as Record<string, string[]>)
        nodes += 1 + ((value as Record<string, string[]>)[store] as string[]).length;
  }
  return nodes;
}
