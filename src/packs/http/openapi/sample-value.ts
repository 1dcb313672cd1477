import { randomUUID } from 'node:crypto';
import type { JsonSchema } from './api-operation.js';
import { flattenSchema, isSchema, typeOf } from './flatten-schema.js';
import { samplePattern } from './sample-pattern.js';

/** Fields a person would recognise an item by: they carry the run's label (and so its marker). */
export const TITLE_FIELD = /^(title|name|label|subject|heading|summary)$/i;
const MAX_DEPTH = 8;

export interface SampleOptions {
  /** The text for title/name-like fields (`Suite 1 · a1b2c3`); default "tally". */
  label?: string;
}

function formatted(format: string): string | undefined {
  const now = new Date().toISOString();
  switch (format) {
    case 'email':
    case 'idn-email':
      return `fisherman+${randomUUID().slice(0, 8)}@example.com`;
    case 'uuid':
      return randomUUID();
    case 'date-time':
      return now;
    case 'date':
      return now.slice(0, 10);
    case 'time':
      return now.slice(11, 19);
    case 'uri':
    case 'url':
    case 'iri':
      return 'https://example.com/';
    case 'uri-reference':
      return '/example';
    case 'hostname':
    case 'idn-hostname':
      return 'example.com';
    case 'ipv4':
      return '192.0.2.1';
    case 'ipv6':
      return '2001:db8::1';
    case 'byte':
      return 'dGFsbHk=';
    case 'password':
      return 'Tally-password-1';
    default:
      return undefined;
  }
}

function fitLength(text: string, schema: JsonSchema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const padded = text.length < min ? text.padEnd(min, 'x') : text;
  return padded.length > max ? padded.slice(0, max) : padded;
}

function number(schema: JsonSchema, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = min ?? (max !== undefined ? Math.min(1, max) : 1);
  if (schema.exclusiveMinimum === true && min !== undefined && value === schema.minimum) value += 1;
  if (integer) value = Math.ceil(value);
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (step) value = Math.ceil(value / step) * step;
  return value;
}

function firstExample(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  return undefined;
}

interface Walk {
  inside: Set<object>;
  depth: number;
  options: SampleOptions;
}

function sample(schema: unknown, field: string | undefined, walk: Walk): unknown {
  if (!isSchema(schema)) return undefined;
  // A schema we are already inside: one level of a recursive structure is enough.
  if (walk.inside.has(schema) || walk.depth >= MAX_DEPTH) return undefined;
  walk.inside.add(schema);
  walk.depth++;
  try {
    const flat = flattenSchema(schema);
    const type = typeOf(flat);
    if (
      field &&
      TITLE_FIELD.test(field) &&
      (type === 'string' || type === undefined) &&
      !Array.isArray(flat.enum)
    )
      return fitLength(walk.options.label ?? 'tally', flat);
    const example = firstExample(flat);
    if (example !== undefined) return structuredClone(example);
    const options = (flat.oneOf ?? flat.anyOf) as unknown[] | undefined;
    if (Array.isArray(options)) {
      for (const option of options) {
        const value = sample(option, field, walk);
        if (value !== undefined) return value;
      }
    }
    switch (type) {
      case 'string': {
        const format = typeof flat.format === 'string' ? formatted(flat.format) : undefined;
        if (format !== undefined) return format;
        const patterned = typeof flat.pattern === 'string' ? samplePattern(flat.pattern) : undefined;
        return patterned ?? fitLength('tally', flat);
      }
      case 'integer':
        return number(flat, true);
      case 'number':
        return number(flat, false);
      case 'boolean':
        return false;
      case 'array': {
        const item = sample(flat.items, undefined, walk);
        const count = Math.max(
          typeof flat.minItems === 'number' ? flat.minItems : 0,
          item === undefined ? 0 : 1,
        );
        return Array.from({ length: count }, () => structuredClone(item));
      }
      case 'object':
        return sampleObject(flat, walk);
      default:
        return undefined;
    }
  } finally {
    walk.inside.delete(schema);
    walk.depth--;
  }
}

function sampleObject(flat: JsonSchema, walk: Walk): Record<string, unknown> {
  const properties = isSchema(flat.properties) ? flat.properties : {};
  const required = new Set(Array.isArray(flat.required) ? (flat.required as string[]) : []);
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (isSchema(property) && property.readOnly === true) continue;
    // Optional title-like fields are filled too: they carry the run's marker.
    if (!required.has(name) && !TITLE_FIELD.test(name)) continue;
    const value = sample(property, name, walk);
    if (value !== undefined)
      Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return body;
}

/**
 * A value that satisfies a (possibly cyclic) schema as simply as possible: required
 * fields only (plus title/name fields, which carry the run's label), each from its const,
 * example, default or first enum value, else from its format, pattern and limits.
 */
export function sampleValue(schema: JsonSchema, options: SampleOptions = {}): unknown {
  return sample(schema, undefined, { inside: new Set(), depth: 0, options });
}
