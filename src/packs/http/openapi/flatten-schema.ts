import type { JsonSchema } from './api-operation.js';

const MAX_ALLOF_DEPTH = 64;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A schema with its `allOf` parts folded in (properties merged, `required` united, the
 * first word on anything else). Property schemas are the original objects, so callers can
 * still recognise a cycle by identity. `seen` guards an `allOf` that includes itself; parts
 * nested deeper than `MAX_ALLOF_DEPTH` are left out (a hostile document must not overflow
 * the stack).
 */
export function flattenSchema(schema: JsonSchema, seen: Set<object> = new Set(), depth = 0): JsonSchema {
  if (!Array.isArray(schema.allOf) || seen.has(schema)) return schema;
  if (depth > MAX_ALLOF_DEPTH) {
    const { allOf: _deeper, ...shallow } = schema;
    return shallow;
  }
  seen.add(schema);
  const { allOf, ...own } = schema;
  const merged: JsonSchema = { ...own };
  const properties: Record<string, unknown> = { ...(isObject(own.properties) ? own.properties : {}) };
  const required = new Set<string>(Array.isArray(own.required) ? (own.required as string[]) : []);
  for (const part of allOf as unknown[]) {
    if (!isObject(part)) continue;
    const flat = flattenSchema(part, seen, depth + 1);
    for (const [key, value] of Object.entries(flat)) {
      // A part already being merged (a cycle) keeps its own `allOf`: never carried up.
      if (key === 'allOf') continue;
      if (key === 'properties' && isObject(value)) {
        for (const [name, property] of Object.entries(value)) properties[name] ??= property;
      } else if (key === 'required' && Array.isArray(value)) {
        for (const name of value) required.add(String(name));
      } else if (merged[key] === undefined) {
        merged[key] = value;
      }
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  if (merged.type === undefined && merged.properties) merged.type = 'object';
  return merged;
}

/** The first type a schema declares that is not `null` (3.1 writes `type: [string, null]`). */
export function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((entry) => entry !== 'null') as string | undefined;
  if (isObject(schema.properties)) return 'object';
  if (isObject(schema.items)) return 'array';
  return undefined;
}

export { isObject as isSchema };
