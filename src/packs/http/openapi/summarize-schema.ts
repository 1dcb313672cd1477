import type { JsonSchema } from './api-operation.js';
import { flattenSchema, isSchema, typeOf } from './flatten-schema.js';

const MAX_DEPTH = 6;
const MAX_PROPERTIES = 40;
const MAX_OPTIONS = 5;
const MAX_TEXT = 160;
const FACETS = [
  'format',
  'enum',
  'const',
  'default',
  'example',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'nullable',
] as const;

/**
 * Security: descriptions come from a document anyone could hand us; shown as data, with
 * control and format characters replaced and the length capped.
 */
export function cleanSpecText(text: string): string {
  const plain = text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, ' ').trim();
  return plain.length > MAX_TEXT ? `${plain.slice(0, MAX_TEXT)}…` : plain;
}

/** Keeps values JSON-safe and short (an `example` may itself be a large object). */
function facet(value: unknown): unknown {
  if (value === null || typeof value !== 'object')
    return typeof value === 'string' ? cleanSpecText(value) : value;
  const text = JSON.stringify(value);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : value;
}

interface Walk {
  /** The schemas we are inside, with where each was first met: a cycle points back there. */
  ancestors: Map<object, string>;
  depth: number;
}

function summarize(schema: unknown, where: string, walk: Walk, forRequest: boolean): unknown {
  if (!isSchema(schema)) return {};
  const outer = walk.ancestors.get(schema);
  if (outer !== undefined) {
    const title = typeof schema.title === 'string' ? ` (${cleanSpecText(schema.title)})` : '';
    return { recursive: `same schema as ${outer}${title}` };
  }
  if (walk.depth >= MAX_DEPTH) return { type: typeOf(schema) ?? 'any', note: 'deeper levels omitted' };
  walk.ancestors.set(schema, where);
  walk.depth++;
  try {
    const flat = flattenSchema(schema);
    const summary: Record<string, unknown> = {};
    const type = typeOf(flat);
    if (type) summary.type = type;
    if (typeof flat.title === 'string') summary.title = cleanSpecText(flat.title);
    if (typeof flat.description === 'string') summary.description = cleanSpecText(flat.description);
    for (const key of FACETS) if (flat[key] !== undefined) summary[key] = facet(flat[key]);
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = flat[key];
      if (!Array.isArray(options)) continue;
      summary[key] = options
        .slice(0, MAX_OPTIONS)
        .map((option, at) => summarize(option, `${where}.${key}[${at}]`, walk, forRequest));
      if (options.length > MAX_OPTIONS) summary[`${key}Omitted`] = options.length - MAX_OPTIONS;
    }
    if (isSchema(flat.properties)) {
      const entries = Object.entries(flat.properties).filter(
        // A request never sends what the server alone writes (`id`, `created_at`).
        ([, property]) => !(forRequest && isSchema(property) && property.readOnly === true),
      );
      const required = Array.isArray(flat.required) ? (flat.required as string[]) : [];
      const visible = new Set(entries.map(([name]) => name));
      if (required.some((name) => visible.has(name)))
        summary.required = required.filter((name) => visible.has(name));
      summary.properties = Object.fromEntries(
        entries
          .slice(0, MAX_PROPERTIES)
          .map(([name, property]) => [name, summarize(property, `${where}.${name}`, walk, forRequest)]),
      );
      if (entries.length > MAX_PROPERTIES) summary.propertiesOmitted = entries.length - MAX_PROPERTIES;
    }
    if (flat.items !== undefined) summary.items = summarize(flat.items, `${where}[]`, walk, forRequest);
    return summary;
  } finally {
    walk.ancestors.delete(schema);
    walk.depth--;
  }
}

/**
 * A JSON-safe summary of a (possibly cyclic) dereferenced schema: types, required fields,
 * enums, formats, examples, limits. A cycle is written as `{ recursive: "same schema as
 * body.children[]" }`, never as a serializer's placeholder; `allOf` is merged; `oneOf` and
 * `anyOf` list their options. For a request, read-only properties are left out.
 */
export function summarizeSchema(
  schema: JsonSchema,
  options: { request?: boolean; root?: string } = {},
): unknown {
  return summarize(
    schema,
    options.root ?? 'body',
    { ancestors: new Map(), depth: 0 },
    options.request ?? true,
  );
}
