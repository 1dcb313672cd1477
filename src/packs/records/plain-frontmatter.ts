/** Deeper or larger frontmatter than this is not a record's metadata; it is refused, not walked. */
const MAX_DEPTH = 64;
export const MAX_NODES = 20_000;

export type PlainFrontmatter = { value: unknown } | { unrepresentable: string };

/**
 * A JSON-safe copy of parsed YAML, or why none exists. YAML can say things JSON cannot: an
 * alias inside its own anchor (`self: &s [*s]`) is a cycle, which made every index write throw
 * "Converting circular structure to JSON"; tags give Sets, Maps, Buffers and BigInts. Sets become
 * lists, Maps and objects plain objects (`__proto__` kept as an ordinary key), bytes base64,
 * big integers strings; Dates stay Dates (they serialize as ISO strings).
 */
export function plainFrontmatter(data: unknown): PlainFrontmatter {
  const ancestors = new Set<object>();
  let nodes = 0;
  const fail = (why: string): never => {
    throw new UnrepresentableFrontmatter(why);
  };
  const copy = (value: unknown, at: string, depth: number): unknown => {
    nodes += 1;
    if (nodes > MAX_NODES) fail(`more than ${MAX_NODES} values`);
    if (depth > MAX_DEPTH) fail(`nested deeper than ${MAX_DEPTH} levels at ${at}`);
    if (typeof value === 'bigint') return value.toString();
    if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
    if (value instanceof Date) return value;
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    if (ancestors.has(value)) fail(`a self-referencing alias at ${at}`);
    ancestors.add(value);
    try {
      if (Array.isArray(value) || value instanceof Set)
        return [...value].map((item, index) => copy(item, `${at}[${index}]`, depth + 1));
      const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
      const result: Record<string, unknown> = {};
      for (const [key, item] of entries) {
        const name = String(key);
        // Security: defineProperty, so a `__proto__` key is data, never the copy's prototype.
        Object.defineProperty(result, name, {
          value: copy(item, at ? `${at}.${name}` : name, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return result;
    } finally {
      ancestors.delete(value);
    }
  };
  try {
    return { value: copy(data, '', 0) };
  } catch (error) {
    if (error instanceof UnrepresentableFrontmatter) return { unrepresentable: error.message };
    throw error;
  }
}

class UnrepresentableFrontmatter extends Error {}
