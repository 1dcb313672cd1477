import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiSpecIndex } from '../../../src/packs/http/openapi/api-spec-index.js';
import { describeOperation } from '../../../src/packs/http/openapi/describe-operation.js';
import { loadApiSpecs } from '../../../src/packs/http/openapi/load-api-specs.js';
import { sampleValue } from '../../../src/packs/http/openapi/sample-value.js';
import { summarizeSchema } from '../../../src/packs/http/openapi/summarize-schema.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'node_modules', '@readme', 'oas-examples');
const example = (version: string, name: string, format = 'json') =>
  join(EXAMPLES, version, format, `${name}.${format}`);

async function indexOf(...sources: string[]) {
  return new ApiSpecIndex(await loadApiSpecs(sources));
}

/** Every operation described as the model would see it: must serialize, with no cycle placeholder. */
function describeAll(index: ApiSpecIndex): string {
  const text = JSON.stringify(index.operations.map((operation) => describeOperation(operation)));
  expect(text).not.toContain('[Circular]');
  return text;
}

describe('reading OpenAPI documents', () => {
  it.each([
    ['2.0', 'petstore', 'json'],
    ['3.0', 'petstore', 'json'],
    ['3.0', 'petstore', 'yaml'],
    ['3.1', 'petstore', 'json'],
    ['3.1', 'train-travel', 'json'],
  ])('reads Swagger/OpenAPI %s %s (%s) into operations by method', async (version, name, format) => {
    const index = await indexOf(example(version, name, format));
    expect(index.operations.length).toBeGreaterThan(3);
    expect(index.operations.some((operation) => operation.method === 'POST' && operation.requestBody)).toBe(
      true,
    );
    describeAll(index);
  });

  it.each([
    ['3.0', 'schema-circular'],
    ['3.0', 'circular-request-bodies'],
    ['2.0', 'schema-circular'],
  ])('summarizes the cyclic schemas of %s %s without a cycle placeholder', async (version, name) => {
    const index = await indexOf(example(version, name));
    const text = describeAll(index);
    expect(text).toContain('same schema as');
    for (const operation of index.operations) {
      if (!operation.requestBody) continue;
      expect(() => JSON.stringify(sampleValue(operation.requestBody?.schema ?? {}))).not.toThrow();
    }
  });

  it('get_endpoint_spec is method-aware: the POST operation at a path, not the GET', async () => {
    const index = await indexOf(example('3.0', 'petstore'));
    const post = index.operation('POST', '/pet');
    const put = index.operation('PUT', '/pet');
    expect(post?.method).toBe('POST');
    expect(put?.method).toBe('PUT');
    expect(post?.operationId).not.toBe(put?.operationId);
    expect(index.operation('GET', '/pet/42')?.method).toBe('GET');
    expect(index.operation('DELETE', '/pet/42')?.method).toBe('DELETE');
    expect(index.operation('POST', '/pet/42')?.operationId).toBe('updatePetWithForm');
    // A literal beats a parameter: /pet/findByStatus is not /pet/{petId}.
    expect(index.operation('GET', '/pet/findByStatus')?.path).toBe('/pet/findByStatus');
    const described = describeOperation(post as NonNullable<typeof post>) as {
      requestBody: { schema: { required: string[]; properties: Record<string, unknown> } };
    };
    expect(described.requestBody.schema.required).toEqual(expect.arrayContaining(['name', 'photoUrls']));
  });

  it('uses every document, not the first', async () => {
    const index = await indexOf(example('3.0', 'petstore'), example('3.1', 'train-travel'));
    expect(index.operation('POST', '/pet')).toBeDefined();
    expect(index.operation('POST', '/bookings')).toBeDefined();
    expect(index.set.sources).toHaveLength(2);
  });

  it('resolves $refs across files (a document and a schemas file next to it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-openapi-'));
    writeFileSync(
      join(dir, 'schemas.yaml'),
      [
        'Owner:',
        '  type: object',
        '  required: [name, email]',
        '  properties:',
        '    name: { type: string }',
        '    email: { type: string, format: email }',
        '    friend: { $ref: "#/Owner" }',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'api.yaml'),
      [
        'openapi: 3.0.3',
        'info: { title: Split, version: "1" }',
        'paths:',
        '  /owners:',
        '    post:',
        '      requestBody:',
        '        content:',
        '          application/json:',
        '            schema: { $ref: "./schemas.yaml#/Owner" }',
        '      responses: { "201": { description: created } }',
      ].join('\n'),
    );
    const index = await indexOf(join(dir, 'api.yaml'));
    const operation = index.operation('POST', '/owners');
    const body = sampleValue(operation?.requestBody?.schema ?? {}) as Record<string, string>;
    expect(body.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(describeAll(index)).toContain('same schema as body');
  });

  it('refuses what is not a document with a stable code and the fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-openapi-'));
    writeFileSync(join(dir, 'not-a-spec.json'), '{"hello": "world"}');
    await expect(loadApiSpecs([join(dir, 'not-a-spec.json')])).rejects.toMatchObject({
      code: 'SPEC_UNREADABLE',
      message: expect.stringMatching(/Pass an OpenAPI 3\.x or Swagger 2\.0 document/),
    });
  });
});

describe('request bodies from schemas', () => {
  const schema = {
    type: 'object',
    required: ['email', 'id', 'kind', 'when', 'site', 'count', 'ratio', 'code', 'tags', 'owner', 'choice'],
    properties: {
      title: { type: 'string', maxLength: 30 },
      email: { type: 'string', format: 'email' },
      id: { type: 'string', format: 'uuid' },
      kind: { type: 'string', enum: ['alpha', 'beta'] },
      when: { type: 'string', format: 'date-time' },
      site: { type: 'string', format: 'uri' },
      count: { type: 'integer', minimum: 3, maximum: 9 },
      ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
      tags: { type: 'array', minItems: 2, items: { type: 'string', minLength: 4 } },
      owner: {
        allOf: [
          { type: 'object', required: ['first'], properties: { first: { type: 'string' } } },
          { required: ['age'], properties: { age: { type: 'integer', default: 40 } } },
        ],
      },
      choice: {
        oneOf: [
          { type: 'object', required: ['a'], properties: { a: { type: 'boolean' } } },
          { type: 'string' },
        ],
      },
      optional: { type: 'string' },
      server: { type: 'integer', readOnly: true },
      status: { type: 'string', example: 'open' },
    },
  };

  it('fills required fields from formats, enums, limits, patterns, allOf and oneOf; title fields get the label', () => {
    const body = sampleValue(schema, { label: 'Pet 1 · a1b2c3' }) as Record<string, unknown>;
    expect(body.title).toBe('Pet 1 · a1b2c3');
    expect(body.email).toMatch(/^[^@\s]+@example\.com$/);
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(body.kind).toBe('alpha');
    expect(Number.isNaN(Date.parse(body.when as string))).toBe(false);
    expect(() => new URL(body.site as string)).not.toThrow();
    expect(body.count).toBe(3);
    expect(body.ratio).toBeGreaterThan(0);
    expect(body.ratio).toBeLessThanOrEqual(1);
    expect(body.code).toMatch(/^[A-Z]{3}-\d{4}$/);
    expect(body.tags).toEqual(['tally', 'tally']);
    expect(body.owner).toEqual({ first: 'tally', age: 40 });
    expect(body.choice).toEqual({ a: false });
    expect(body).not.toHaveProperty('optional');
    expect(body).not.toHaveProperty('server');
  });

  it('an object with oneOf variants keeps its own fields and meets one variant (ReadMe v1: a doc needs a title and a category)', async () => {
    const index = await indexOf(example('3.0', 'readme-legacy'));
    const docs = index.operation('POST', '/docs')?.requestBody?.schema ?? {};
    expect(sampleValue(docs, { label: 'Doc 1 · a1b2c3' })).toEqual({
      title: 'Doc 1 · a1b2c3',
      category: 'tally',
    });
    const card = sampleValue({
      type: 'object',
      required: ['kind', 'owner'],
      properties: { kind: { type: 'string' }, owner: { type: 'string' } },
      oneOf: [
        {
          required: ['number'],
          properties: {
            kind: { type: 'string', const: 'card' },
            number: { type: 'string', pattern: '^\\d{4}$' },
          },
        },
        { required: ['iban'], properties: { kind: { const: 'bank' }, iban: { type: 'string' } } },
      ],
    });
    // The variant's own word wins where both speak (`kind` is "card", not any string).
    expect(card).toEqual({ kind: 'card', owner: 'tally', number: '1111' });
  });

  it('a title field whose pattern the label breaks gets a value of the pattern, the label elsewhere', () => {
    const schema = {
      type: 'object',
      required: ['name', 'title'],
      properties: { name: { type: 'string', pattern: '^[a-z0-9-]{3,30}$' }, title: { type: 'string' } },
    };
    const body = sampleValue(schema, {
      label: 'Team 1 · a1b2c3',
      unique: { run: 'a1b2c3', serial: 1 },
    }) as Record<string, string>;
    expect(body.title).toBe('Team 1 · a1b2c3');
    expect(body.name).toMatch(/^[a-z0-9-]{3,30}$/);
    // An unanchored pattern the label meets keeps the label (ReadMe's branch names).
    expect(
      sampleValue(
        { type: 'object', properties: { name: { type: 'string', pattern: '[0-9]+' } } },
        { label: 'Branch 1 · x' },
      ),
    ).toEqual({ name: 'Branch 1 · x' });
  });

  it('summarizes limits and enums, leaving out read-only fields of a request', () => {
    const summary = summarizeSchema(schema) as { properties: Record<string, Record<string, unknown>> };
    expect(summary.properties.kind?.enum).toEqual(['alpha', 'beta']);
    expect(summary.properties.count).toMatchObject({ minimum: 3, maximum: 9 });
    expect(summary.properties.code?.pattern).toBe('^[A-Z]{3}-\\d{4}$');
    expect(summary.properties).not.toHaveProperty('server');
    expect(summary.properties.owner).toMatchObject({ required: ['first', 'age'] });
  });
});
