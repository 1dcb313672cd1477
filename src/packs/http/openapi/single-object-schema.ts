import type { JsonSchema } from './api-operation.js';
import { flattenSchema, isSchema, typeOf } from './flatten-schema.js';

/** Deeper `oneOf`/`anyOf`/`allOf` nesting than any real document has: a hostile or broken one. */
export const MAX_COMPOSITION_DEPTH = 16;

/** Where `loadApiSpecs` writes a component schema's own name before `$ref`s are resolved. */
export const SCHEMA_NAME = 'x-tally-schema';

export type SingleObject = { schema: JsonSchema } | { error: string };

const optionsOf = (flat: JsonSchema): unknown[] | undefined =>
  Array.isArray(flat.oneOf) ? flat.oneOf : Array.isArray(flat.anyOf) ? flat.anyOf : undefined;

/** `#/components/schemas/Cat`, `#/definitions/Cat` or `Cat` → `Cat`. */
const refName = (ref: unknown) => (typeof ref === 'string' ? ref.split('/').at(-1) : undefined);

/**
 * The value a discriminator gives an option: the mapping key that points at the option's
 * schema, else (no mapping entry) the schema's own name, as OpenAPI defines the implicit
 * mapping. Undefined when the option's name is unknown (an inline schema).
 */
export function discriminatorValue(parent: JsonSchema, option: JsonSchema): string | undefined {
  const discriminator = parent.discriminator;
  if (!isSchema(discriminator) || typeof discriminator.propertyName !== 'string') return undefined;
  const name = option[SCHEMA_NAME];
  if (typeof name !== 'string') return undefined;
  const mapping = isSchema(discriminator.mapping) ? discriminator.mapping : {};
  const key = Object.entries(mapping).find(([, ref]) => refName(ref) === name)?.[0];
  return key ?? name;
}

/** The option with its discriminator property fixed to the value that selects it. */
export function withDiscriminator(parent: JsonSchema, option: JsonSchema): JsonSchema {
  const value = discriminatorValue(parent, option);
  const discriminator = parent.discriminator as { propertyName?: unknown } | undefined;
  const property = discriminator?.propertyName;
  if (value === undefined || typeof property !== 'string') return option;
  const properties = isSchema(option.properties) ? option.properties : {};
  const own = isSchema(properties[property]) ? (properties[property] as JsonSchema) : { type: 'string' };
  const required = Array.isArray(option.required) ? (option.required as string[]) : [];
  return {
    ...option,
    properties: { ...properties, [property]: { ...own, const: value } },
    required: required.includes(property) ? required : [...required, property],
  };
}

/**
 * A schema that takes its discriminator from an `allOf` part (`Cat: allOf [Pet, …]`, Pet
 * naming `pet_type`): its own name (or mapping key) is the value that says it is a Cat.
 */
export function inherited(raw: JsonSchema, flat: JsonSchema): JsonSchema {
  return Array.isArray(raw.allOf) && isSchema(flat.discriminator) && !optionsOf(flat)
    ? withDiscriminator(flat, flat)
    : flat;
}

const isObjectSchema = (flat: JsonSchema) =>
  typeOf(flat) === 'object' || (flat.type === undefined && isSchema(flat.properties));

function kindOf(schema: unknown): string {
  if (!isSchema(schema)) return 'not a schema';
  const flat = flattenSchema(schema);
  if (optionsOf(flat)) return 'a choice';
  const type = typeOf(flat);
  if (type === 'array') return 'an array (a bulk create)';
  if (type === undefined) return 'any value';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * `oneOf` means exactly one: a body that fits two options (both with only optional fields
 * left) is refused by a validator. The option's first property no other option declares
 * is made required, so the body is this option's alone.
 */
function distinguished(branch: JsonSchema, options: unknown[], option: unknown): JsonSchema {
  const properties = branch.properties;
  if (!isSchema(properties)) return branch;
  const others = new Set<string>();
  for (const other of options)
    if (other !== option && isSchema(other)) {
      const flat = flattenSchema(other);
      if (isSchema(flat.properties)) for (const name of Object.keys(flat.properties)) others.add(name);
    }
  const required = Array.isArray(branch.required) ? (branch.required as string[]) : [];
  const own = Object.entries(properties).find(
    ([name, property]) =>
      !others.has(name) && !(isSchema(property) && flattenSchema(property).readOnly === true),
  )?.[0];
  if (own === undefined || required.includes(own)) return branch;
  return { ...branch, required: [...required, own] };
}

function resolve(schema: JsonSchema, where: string, inside: Set<object>, depth: number): SingleObject {
  if (depth > MAX_COMPOSITION_DEPTH)
    return {
      error: `nests oneOf/anyOf/allOf more than ${MAX_COMPOSITION_DEPTH} levels deep (at ${where}); a real API's body does not — check the document`,
    };
  const flat = flattenSchema(schema);
  const options = optionsOf(flat);
  if (!options) {
    if (isObjectSchema(flat)) return { schema: { ...inherited(schema, flat), type: 'object' } };
    // No type and no properties: any JSON, so an object will do.
    if (typeOf(flat) === undefined && flat.const === undefined && flat.enum === undefined)
      return { schema: { ...flat, type: 'object' } };
    return { error: `is ${kindOf(flat)}, not a JSON object` };
  }
  const keyword = Array.isArray(flat.oneOf) ? 'oneOf' : 'anyOf';
  // The choice's own words (shared properties, required fields) hold for every option.
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _discriminator, ...own } = flat;
  const shared = isSchema(own.properties) || Array.isArray(own.required);
  const kinds: string[] = [];
  for (const [at, option] of options.entries()) {
    // An option that refers back to a choice we are inside is a cycle, never a body.
    if (!isSchema(option) || inside.has(option)) continue;
    const branch = inherited(option, flattenSchema(option));
    if (!optionsOf(branch) && !isObjectSchema(branch)) {
      kinds.push(kindOf(branch));
      continue;
    }
    inside.add(option);
    const picked = keyword === 'oneOf' ? distinguished(branch, options, option) : branch;
    const chosen = resolve(
      shared ? { allOf: [withDiscriminator(flat, picked), own] } : withDiscriminator(flat, picked),
      `${where}.${keyword}[${at}]`,
      inside,
      depth + 1,
    );
    inside.delete(option);
    if ('schema' in chosen || chosen.error.startsWith('nests')) return chosen;
    kinds.push(kindOf(branch));
  }
  return {
    error: `is ${keyword} of ${kinds.join(', ') || 'nothing usable'} — no single JSON object form`,
  };
}

/**
 * The single-object form of a request body: `allOf` merged; of a `oneOf`/`anyOf`, the first
 * option that is one object — an API that takes "an Item or an array of Items" (bulk or
 * single, as Directus does) gets one Item per request — with the choice's shared
 * properties and, under a discriminator, its property fixed to the value that selects that
 * option. A body that is only an array, a scalar, or composition nested past
 * `MAX_COMPOSITION_DEPTH` is an error that says which.
 */
export function singleObjectSchema(schema: JsonSchema): SingleObject {
  return resolve(schema, 'body', new Set([schema]), 0);
}

/**
 * The scalar type a field takes, for a link to a parent's id: its own type, else that of the
 * first scalar option of its `oneOf`/`anyOf` — a relation written as "the id, or the whole
 * related object" (`author: oneOf [integer, Author]`) links by the id. Undefined when the
 * field only takes objects or arrays.
 */
export function scalarTypeOf(schema: unknown): string | undefined {
  if (!isSchema(schema)) return undefined;
  const flat = flattenSchema(schema);
  const type = typeOf(flat);
  if (type !== undefined) return type === 'object' || type === 'array' ? undefined : type;
  const options = optionsOf(flat);
  if (!options) return 'string';
  for (const option of options) {
    if (!isSchema(option)) continue;
    const optionType = typeOf(flattenSchema(option));
    if (optionType && !['object', 'array', 'null'].includes(optionType)) return optionType;
  }
  return undefined;
}
