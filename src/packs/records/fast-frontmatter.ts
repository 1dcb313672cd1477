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
const TYPED = new RegExp(
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

// Security: `__proto__` as a key would set a prototype on assignment; the parser path keeps it as data.
const usableKey = (key: string) => key !== '__proto__' && !TYPED.test(key);

function scalar(text: string): string | undefined {
  if (!SCALAR.test(text) || TYPED.test(text)) return undefined;
  return text;
}

/** `[a, b c, d]` → its items, or undefined when it is not that simple. */
function flowList(text: string): string[] | undefined {
  if (!text.startsWith('[') || !text.endsWith(']')) return undefined;
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const items: string[] = [];
  for (const part of inner.split(',')) {
    const item = scalar(part.trim());
    if (item === undefined) return undefined;
    items.push(item);
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
  for (const line of yamlText.split('\n')) {
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
      for (const list of Object.values(value as Record<string, string[]>)) nodes += 1 + list.length;
  }
  return nodes;
}
