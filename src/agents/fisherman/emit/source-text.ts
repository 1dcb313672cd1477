/**
 * The one way a value reaches generated source (`--emit playwright`) — captured bodies,
 * titles, field names, paths, the spec's base URL and the run id are untrusted, so none is
 * ever written raw: strings become JSON string literals with U+2028/U+2029 (and every other
 * non-ASCII character) escaped, objects become literals whose keys go through the same
 * serializer (`__proto__` as a computed key, so it stays an own field), and a comment gets a
 * one-line printable-ASCII form that cannot end the comment.
 */

/** A JavaScript/TypeScript string literal for `value`: printable ASCII only, so no line terminator, `*\/` or `</script>` survives. */
export function jsString(value: string): string {
  return JSON.stringify(value)
    .replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\*\//g, '*\\/')
    .replace(/</g, '\\u003c');
}

/** A property key: a string literal, or `["__proto__"]` so the field is not taken as the prototype. */
export function jsKey(key: string): string {
  return key === '__proto__' ? `[${jsString(key)}]` : jsString(key);
}

/** A literal for a JSON value (what a request body holds); anything else is written as JSON would write it. */
export function jsValue(value: unknown): string {
  if (typeof value === 'string') return jsString(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map((item) => jsValue(item)).join(', ')}]`;
  if (typeof value === 'object')
    return `{ ${Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined && typeof item !== 'function')
      .map(([key, item]) => `${jsKey(key)}: ${jsValue(item)}`)
      .join(', ')} }`;
  return 'null';
}

/** One line of printable ASCII for a comment: the value's escaped string form, without its quotes. */
export function commentText(value: string): string {
  return jsString(value).slice(1, -1);
}

/** A generated identifier: only what `itemRefs` makes; anything else is a bug, refused loudly. */
export function jsIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`Not a safe identifier for generated code: ${jsString(name)}`);
  return name;
}
