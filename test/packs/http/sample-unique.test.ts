// N bodies for one endpoint: fields with uniqueness needs get each item's own value, within
// the schema's constraints, and a second run's values differ from the first's.
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../../src/packs/http/openapi/api-operation.js';
import { samplePattern } from '../../../src/packs/http/openapi/sample-pattern.js';
import { isUniqueField, sampleValue } from '../../../src/packs/http/openapi/sample-value.js';

const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const schema = {
  type: 'object',
  required: ['name', 'email', 'username', 'code', 'kind', 'ref', 'site', 'currency', 'aliases'],
  properties: {
    name: { type: 'string', maxLength: 40 },
    email: { type: 'string', format: 'email' },
    username: { type: 'string', minLength: 3, maxLength: 12 },
    code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
    kind: { type: 'string', enum: ['staff', 'guest'] },
    ref: { type: 'string', format: 'uuid' },
    site: { type: 'string', format: 'uri' },
    // An ordinary name with an example: the example stays (many items share a currency).
    currency: { type: 'string', pattern: '^[a-z]{3}$', example: 'gbp' },
    aliases: {
      type: 'array',
      minItems: 2,
      uniqueItems: true,
      items: { type: 'string', pattern: '^[a-z0-9]{4,8}$' },
    },
  },
} as const;

/** Checks a value against the constraints of a string schema; returns what it breaks. */
function broken(value: unknown, property: JsonSchema): string[] {
  const problems: string[] = [];
  if (typeof value !== 'string') return [`${JSON.stringify(value)} is not a string`];
  if (typeof property.maxLength === 'number' && value.length > property.maxLength)
    problems.push(`${value} is longer than ${property.maxLength}`);
  if (typeof property.minLength === 'number' && value.length < property.minLength)
    problems.push(`${value} is shorter than ${property.minLength}`);
  if (typeof property.pattern === 'string' && !new RegExp(property.pattern, 'u').test(value))
    problems.push(`${value} does not match ${property.pattern}`);
  if (Array.isArray(property.enum) && !property.enum.includes(value))
    problems.push(`${value} is not one of ${property.enum}`);
  if (property.format === 'email' && !EMAIL.test(value)) problems.push(`${value} is not an email`);
  if (property.format === 'uuid' && !UUID.test(value)) problems.push(`${value} is not a UUID`);
  if (property.format === 'uri' && !URL.canParse(value)) problems.push(`${value} is not a URI`);
  return problems;
}

/** Every required field present and within its constraints (array items checked one by one). */
function violations(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const field of schema.required) {
    const property = schema.properties[field] as JsonSchema;
    const value = body[field];
    if (property.type === 'array') {
      const items = value as unknown[];
      if (!Array.isArray(items) || items.length < (property.minItems as number))
        problems.push(`${field} has too few items`);
      else if (new Set(items).size !== items.length) problems.push(`${field} repeats an item`);
      for (const item of items ?? []) problems.push(...broken(item, property.items as JsonSchema));
    } else {
      problems.push(...broken(value, property).map((problem) => `${field}: ${problem}`));
    }
  }
  return problems;
}

const bodies = (run: string, count: number) =>
  Array.from(
    { length: count },
    (_unused, at) =>
      sampleValue(schema, {
        label: `Member ${at + 1} · ${run}`,
        unique: { run, serial: at + 1 },
      }) as Record<string, unknown>,
  );

const UNIQUE_FIELDS = ['name', 'email', 'username', 'code', 'ref', 'site'] as const;

describe('unique values per item and per run', () => {
  it('5 bodies: emails, usernames, codes, uuids, URIs pairwise distinct, each within the schema', () => {
    const five = bodies('a1b2c3', 5);
    for (const body of five) expect(violations(body), JSON.stringify(body)).toEqual([]);
    for (const field of UNIQUE_FIELDS) expect(new Set(five.map((body) => body[field])).size, field).toBe(5);
    // Enums and an ordinary field's example keep their values.
    expect(new Set(five.map((body) => body.kind))).toEqual(new Set(['staff']));
    expect(new Set(five.map((body) => body.currency))).toEqual(new Set(['gbp']));
    // The same token, the same body: a plan can be shown and replayed.
    expect(bodies('a1b2c3', 5)).toEqual(five);
  });

  it('a second run (another marker) collides with the first in no unique field', () => {
    const first = bodies('a1b2c3', 5);
    const second = bodies('d4e5f6', 5);
    for (const body of second) expect(violations(body)).toEqual([]);
    for (const field of UNIQUE_FIELDS) {
      const before = new Set(first.map((body) => body[field]));
      expect(
        second.filter((body) => before.has(body[field])),
        field,
      ).toEqual([]);
    }
    const aliases = new Set(first.flatMap((body) => body.aliases as string[]));
    expect(second.flatMap((body) => body.aliases as string[]).filter((alias) => aliases.has(alias))).toEqual(
      [],
    );
  });

  it('a short maxLength keeps the part that differs; a pattern too rich to sample still gets a fitting value', () => {
    const tight = {
      type: 'object',
      required: ['username', 'slug'],
      properties: {
        username: { type: 'string', maxLength: 5 },
        slug: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
      },
    };
    const made = Array.from(
      { length: 5 },
      (_unused, at) =>
        sampleValue(tight, { unique: { run: 'a1b2c3', serial: at + 1 } }) as Record<string, string>,
    );
    expect(new Set(made.map((body) => body.username)).size).toBe(5);
    for (const body of made) {
      expect(body.username?.length).toBeLessThanOrEqual(5);
      expect(body.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    }
    expect(new Set(made.map((body) => body.slug)).size).toBe(5);
  });

  it('without a token a body is as before: the plainest values', () => {
    expect(sampleValue(schema)).toMatchObject({
      name: 'tally',
      username: 'tally',
      code: 'AAA-1111',
      site: 'https://example.com/',
      currency: 'gbp',
    });
  });

  it('seeded patterns: nearby seeds differ, the limits hold', () => {
    const codes = [1n, 2n, 3n, 4n, 5n].map((seed) => samplePattern('^[A-Z]{3}-\\d{4}$', { seed }));
    expect(new Set(codes).size).toBe(5);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{3}-\d{4}$/);
    // `+` may repeat for room, unless that breaks maxLength: then the least repetitions.
    expect(samplePattern('^[a-z]+$', { seed: 3n, maxLength: 1 })).toBe('d');
    expect(samplePattern('^[^a]+$', { seed: 3n })).toBeUndefined();
  });

  it('tells unique-looking names from shared ones', () => {
    for (const field of ['email', 'contactEmail', 'user_name', 'username', 'slug', 'code', 'display_name'])
      expect(isUniqueField(field), field).toBe(true);
    for (const field of ['country_code', 'currency', 'description', 'status', 'amount'])
      expect(isUniqueField(field), field).toBe(false);
  });
});
