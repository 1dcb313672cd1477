import { createHash, randomUUID } from 'node:crypto';
import type { JsonSchema } from './api-operation.js';
import { flattenSchema, isSchema, typeOf } from './flatten-schema.js';
import { matchesPattern, samplePattern } from './sample-pattern.js';
import { inherited, withDiscriminator } from './single-object-schema.js';

/** Fields a person would recognise an item by: they carry the run's label (and so its marker). */
export const TITLE_FIELD = /^(title|name|label|subject|heading|summary)$/i;
const MAX_DEPTH = 8;
/** Schemas visited for one body at most: a document with many wide choices must not hang us. */
const MAX_VISITS = 20_000;

/**
 * Fields whose values a server may require to be unique: an account's email or username, a
 * slug, a code — by the whole name (`code`, `key`) or by its last word (`contactEmail`,
 * `user_name`, `display_name`; not `country_code`, which many items share).
 */
const UNIQUE_NAME = /^(e?mail|user_?name|login|handle|slug|code|sku|key|nickname|alias|identifier)$/i;
const UNIQUE_LAST_WORD = /^(e?mail|username|login|handle|slug|nickname|alias|identifier|name)$/i;
const EMAIL_WORD = /^e?mail$/i;
/** Formats whose values identify something, so two items never share one. */
const UNIQUE_FORMATS = new Set([
  'email',
  'idn-email',
  'uuid',
  'uri',
  'url',
  'iri',
  'uri-reference',
  'hostname',
  'idn-hostname',
]);

/**
 * Who a body is for: the run (its marker) and the item's number in that run. Bodies with
 * different tokens get different values in fields with uniqueness needs, so N items of
 * one request, and a second run after the first, do not collide.
 */
export interface UniqueToken {
  run: string;
  serial: number;
}

export interface SampleOptions {
  /** The text for title/name-like fields (`Suite 1 · a1b2c3`); default "tally". */
  label?: string;
  /** Makes emails, usernames, slugs, codes, uuids, URIs and patterned strings this item's own. */
  unique?: UniqueToken;
  /**
   * Filled with the required fields left without a value because the schema is recursive
   * there, nested deeper than the sampler goes, or too large (`body.parent.parent`).
   */
  missing?: string[];
}

/** `user_name` → `name`, `contactEmail` → `Email`: the word a field name ends with. */
function lastWord(field: string): string {
  const words = field.split(/[_\-\s.]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
  return words.at(-1) ?? field;
}

/** Field names decided so far: every item of a data run asks again about the same few fields. */
const uniqueFields = new Map<string, boolean>();
const MAX_DECIDED_FIELDS = 1024;

/** Whether a field's name says its values must be unique (a title field carries the label instead). */
export function isUniqueField(field: string): boolean {
  let unique = uniqueFields.get(field);
  if (unique === undefined) {
    unique = UNIQUE_NAME.test(field) || UNIQUE_LAST_WORD.test(lastWord(field));
    if (uniqueFields.size >= MAX_DECIDED_FIELDS) uniqueFields.clear();
    uniqueFields.set(field, unique);
  }
  return unique;
}

/** `a1b2c3` and item 12 → `a1b2c3c`: short, letters and digits only. */
export const tokenText = (unique: UniqueToken) => `${unique.run}${unique.serial.toString(36)}`;

/**
 * A number for varying patterned strings: the run's hash times a prime, plus the item's
 * number. Items of one run differ by their serials (distinct strings while the pattern
 * has that many); runs differ by their hashes.
 */
function seedOf(unique: UniqueToken): bigint {
  const run = BigInt(`0x${createHash('sha256').update(unique.run).digest('hex').slice(0, 12)}`);
  return run * 1_000_003n + BigInt(unique.serial);
}

/** A UUID of the token's own (version-4 shaped): the same token, the same UUID. */
export function tokenUuid(unique: UniqueToken): string {
  const hex = createHash('sha256').update(`${unique.run}:${unique.serial}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function formatted(format: string, unique?: UniqueToken): string | undefined {
  const now = new Date().toISOString();
  const token = unique ? tokenText(unique) : undefined;
  switch (format) {
    case 'email':
    case 'idn-email':
      return `fisherman+${token ?? randomUUID().slice(0, 8)}@example.com`;
    case 'uuid':
      return unique ? tokenUuid(unique) : randomUUID();
    case 'date-time':
      return now;
    case 'date':
      return now.slice(0, 10);
    case 'time':
      return now.slice(11, 19);
    case 'uri':
    case 'url':
    case 'iri':
      return `https://example.com/${token ?? ''}`;
    case 'uri-reference':
      return token ? `/example/${token}` : '/example';
    case 'hostname':
    case 'idn-hostname':
      return token ? `${token}.example.com` : 'example.com';
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

const limits = (schema: JsonSchema) => ({
  ...(typeof schema.minLength === 'number' ? { minLength: schema.minLength } : {}),
  ...(typeof schema.maxLength === 'number' ? { maxLength: schema.maxLength } : {}),
});

/** `tally-a1b2c31`, or as much as `maxLength` allows: the token, else its end (where items differ). */
function uniqueText(prefix: string, token: string, schema: JsonSchema): string {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const full = `${prefix}-${token}`;
  const text = full.length <= max ? full : token.length <= max ? token : token.slice(token.length - max);
  return fitLength(text, schema);
}

/**
 * This item's own value for a string field with uniqueness needs — an identifying format
 * (email, uuid, URI, hostname), a pattern, or a name like `username`, `slug`, `code` —
 * within the schema's pattern and length limits; undefined for everything else (and for
 * enums and consts, whose values are fixed). A pattern on a field with an example and an
 * ordinary name (`currency: gbp`) keeps the example.
 */
function uniqueString(flat: JsonSchema, field: string | undefined, unique: UniqueToken): string | undefined {
  if (flat.const !== undefined || Array.isArray(flat.enum)) return undefined;
  const format = typeof flat.format === 'string' ? flat.format : undefined;
  if (format !== undefined && UNIQUE_FORMATS.has(format)) return formatted(format, unique);
  const named = field !== undefined && isUniqueField(field);
  const example = firstExample(flat);
  const token = tokenText(unique);
  const prefix = typeof example === 'string' && /^[\w.-]{1,24}$/.test(example) ? example : 'tally';
  const pattern = typeof flat.pattern === 'string' ? flat.pattern : undefined;
  if (pattern !== undefined && (named || example === undefined)) {
    const varied = samplePattern(pattern, { seed: seedOf(unique), ...limits(flat) });
    if (varied !== undefined) return varied;
    // A pattern too rich to sample (groups, look-arounds) may still admit the plain form.
    const plain = uniqueText(prefix, token, flat);
    return matchesPattern(pattern, plain) ? plain : undefined;
  }
  if (!named || format !== undefined || pattern !== undefined) return undefined;
  if (EMAIL_WORD.test(lastWord(field))) return `fisherman+${token}@example.com`;
  return uniqueText(prefix, token, flat);
}

interface Walk {
  inside: Set<object>;
  depth: number;
  options: SampleOptions;
  /** Field names from the body down to where we are. */
  path: string[];
  /** Times a guard (cycle, depth, size) cut the walk short: a required field left empty by one is reported. */
  cuts: number;
  visits: number;
}

/** Options to try in order: a `null` option last (a nullable field still gets a real value). */
function ordered(options: unknown[]): unknown[] {
  const isNull = (option: unknown) => isSchema(option) && typeOf(option) === 'null';
  return [...options.filter((option) => !isNull(option)), ...options.filter(isNull)];
}

function sample(schema: unknown, field: string | undefined, walk: Walk): unknown {
  if (!isSchema(schema)) return undefined;
  // A schema we are already inside: one level of a recursive structure is enough.
  if (walk.inside.has(schema) || walk.depth >= MAX_DEPTH || ++walk.visits > MAX_VISITS) {
    walk.cuts++;
    return undefined;
  }
  walk.inside.add(schema);
  walk.depth++;
  try {
    const flat = flattenSchema(schema);
    const type = typeOf(flat);
    const label = walk.options.label ?? 'tally';
    if (
      field &&
      TITLE_FIELD.test(field) &&
      (type === 'string' || type === undefined) &&
      !Array.isArray(flat.enum) &&
      // A title with a pattern the label breaks (`^[a-z0-9-]+$`) gets a value of the pattern.
      (typeof flat.pattern !== 'string' || matchesPattern(flat.pattern, fitLength(label, flat)))
    )
      return fitLength(label, flat);
    const unique = walk.options.unique;
    if (unique && type === 'string') {
      const own = uniqueString(flat, field, unique);
      if (own !== undefined) return own;
    }
    const example = firstExample(flat);
    if (example !== undefined) return structuredClone(example);
    const options = (flat.oneOf ?? flat.anyOf) as unknown[] | undefined;
    if (Array.isArray(options)) {
      // A value must satisfy the schema's own words AND an option: an object's properties and
      // required fields go with each option (`oneOf: [{required: [category]}, …]`), the
      // option's word first where both speak (a variant's `const`).
      const { oneOf: _oneOf, anyOf: _anyOf, ...own } = flat;
      const shared = isSchema(own.properties) || Array.isArray(own.required);
      for (const raw of ordered(options)) {
        // Under a discriminator, the option's property says which option this is.
        const option =
          flat.discriminator && isSchema(raw) ? withDiscriminator(flat, flattenSchema(raw)) : raw;
        const value = sample(shared && isSchema(option) ? { allOf: [option, own] } : option, field, walk);
        if (value !== undefined) return value;
      }
    }
    switch (type) {
      case 'string': {
        const format = typeof flat.format === 'string' ? formatted(flat.format) : undefined;
        if (format !== undefined) return format;
        const patterned =
          typeof flat.pattern === 'string' ? samplePattern(flat.pattern, limits(flat)) : undefined;
        return patterned ?? fitLength('tally', flat);
      }
      case 'integer':
        return number(flat, true);
      case 'number':
        return number(flat, false);
      case 'boolean':
        return false;
      case 'null':
        return null;
      case 'array': {
        const item = sample(flat.items, undefined, walk);
        const count = Math.max(
          typeof flat.minItems === 'number' ? flat.minItems : 0,
          item === undefined ? 0 : 1,
        );
        if (!unique || count < 2) return Array.from({ length: count }, () => structuredClone(item));
        // Items of their own too: a list of emails or codes holds no two equal ones.
        return Array.from({ length: count }, (_unused, at) =>
          at === 0 ? item : sampleAs(flat.items, walk, { ...unique, run: `${unique.run}i${at}` }),
        );
      }
      case 'object':
        return sampleObject(inherited(schema, flat), walk);
      default:
        return undefined;
    }
  } finally {
    walk.inside.delete(schema);
    walk.depth--;
  }
}

/** A sample of `schema` for another token (an array's further items). */
function sampleAs(schema: unknown, walk: Walk, unique: UniqueToken): unknown {
  const options = walk.options;
  walk.options = { ...options, unique };
  try {
    return sample(schema, undefined, walk);
  } finally {
    walk.options = options;
  }
}

function sampleObject(flat: JsonSchema, walk: Walk): Record<string, unknown> {
  const properties = isSchema(flat.properties) ? flat.properties : {};
  const required = new Set(Array.isArray(flat.required) ? (flat.required as string[]) : []);
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    // What the server alone writes (`id`, `created_at`) is never sent, required or not
    // (OpenAPI: a read-only required field is required in responses only).
    if (isSchema(property) && flattenSchema(property).readOnly === true) continue;
    // Optional title-like fields are filled too: they carry the run's marker.
    if (!required.has(name) && !TITLE_FIELD.test(name)) continue;
    const cuts = walk.cuts;
    walk.path.push(name);
    const value = sample(property, name, walk);
    if (value === undefined && required.has(name) && walk.cuts > cuts)
      walk.options.missing?.push(walk.path.join('.'));
    walk.path.pop();
    if (value !== undefined)
      Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return body;
}

/**
 * A value that satisfies a (possibly cyclic) schema as simply as possible: required
 * fields only (plus title/name fields, which carry the run's label), each from its const,
 * example, default or first enum value, else from its format, pattern and limits. With a
 * `unique` token, fields with uniqueness needs get this item's own value instead (see
 * `uniqueString`): N bodies for one endpoint, and the bodies of a later run, differ there.
 */
export function sampleValue(schema: JsonSchema, options: SampleOptions = {}): unknown {
  return sample(schema, undefined, {
    inside: new Set(),
    depth: 0,
    options,
    path: ['body'],
    cuts: 0,
    visits: 0,
  });
}
