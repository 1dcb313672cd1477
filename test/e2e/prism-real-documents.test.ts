// Real public documents (@readme/oas-examples 8.2.2) served by Prism with request
// validation on: every body Tally builds for an operation whose body is a oneOf/anyOf,
// allOf, discriminator or nested choice must be accepted by a validator nobody here wrote;
// bodies with no single-object form must be refused by Tally with the reason, never sent.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiSpecs } from '../../src/packs/http/openapi/load-api-specs.js';
import { sampleValue } from '../../src/packs/http/openapi/sample-value.js';
import { singleObjectSchema } from '../../src/packs/http/openapi/single-object-schema.js';
import { type Prism, startPrism } from './prism-fixture.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'node_modules', '@readme', 'oas-examples');
const DISCRIMINATORS = join(EXAMPLES, '3.0', 'json', 'discriminators.json');
const POLYMORPHISM = join(EXAMPLES, '3.0', 'json', 'polymorphism.json');

const servers: Prism[] = [];
afterAll(() => {
  for (const server of servers) server.process.kill();
});

/** Each body operation of a document: what Tally builds, and what Prism says of it. */
async function checkEveryBody(document: string, prism: Prism) {
  const { operations } = await loadApiSpecs([document]);
  const outcomes: Record<string, string> = {};
  for (const operation of operations) {
    if (!operation.requestBody || !/json/.test(operation.requestBody.contentType)) continue;
    if (operation.path.includes('{')) continue;
    const key = `${operation.method} ${operation.path}`;
    const single = singleObjectSchema(operation.requestBody.schema);
    if ('error' in single) {
      outcomes[key] = `refused: ${single.error}`;
      continue;
    }
    const body = sampleValue(single.schema, { unique: { run: 'abc123', serial: 1 } });
    const response = await fetch(`${prism.url}${operation.path}`, {
      method: operation.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    outcomes[key] =
      response.status === 422 || response.status === 400
        ? `rejected ${JSON.stringify(body)}: ${JSON.stringify((JSON.parse(text) as { validation?: unknown }).validation ?? text).slice(0, 600)}`
        : 'accepted';
  }
  return outcomes;
}

/**
 * Operations whose options overlap: every body one option accepts, another accepts too
 * (`discrim: string` and nothing else required, extra properties allowed). OpenAPI picks
 * the option by the discriminator; a plain JSON Schema validator — Prism's — knows no
 * discriminator and refuses every body there ("must match exactly one schema in oneOf"),
 * the document's own intent included. What Tally sends there is checked below by value.
 */
const OVERLAPPING = [
  'PATCH /discriminator-with-mapping',
  'PATCH /discriminator-with-no-mapping',
  'PATCH /embedded-discriminator',
  'PATCH /mapping-of-schema-names',
  'PATCH /mapping-with-duplicate-schemas',
  'PATCH /oneof-allof-top-level-disc',
  'POST /potentially-undefined-formData',
];

describe('real public documents through Prism with request validation on', () => {
  let discriminators: Prism;
  let polymorphism: Prism;
  beforeAll(async () => {
    // Without --errors: only requests are judged here, not Prism's own generated responses.
    [discriminators, polymorphism] = await Promise.all([
      startPrism(DISCRIMINATORS, { errors: false }),
      startPrism(POLYMORPHISM, { errors: false }),
    ]);
    servers.push(discriminators, polymorphism);
  }, 120_000);

  it('discriminators.json: the discriminator names the option chosen (mapping key, implicit schema name, embedded in allOf)', async () => {
    const { operations } = await loadApiSpecs([DISCRIMINATORS]);
    const bodyOf = (path: string) => {
      const operation = operations.find((candidate) => candidate.path === path);
      const single = singleObjectSchema(operation?.requestBody?.schema ?? {});
      return 'schema' in single ? sampleValue(single.schema) : single.error;
    };
    expect(bodyOf('/discriminator-with-mapping')).toEqual({ discrim: 'Option One', optionone: 1 });
    expect(bodyOf('/mapping-of-schema-names')).toEqual({ discrim: 'Option One', optionone: 1 });
    expect(bodyOf('/discriminator-with-no-mapping')).toEqual({ discrim: 'OptionOneNoDisc', optionone: 1 });
    expect(bodyOf('/oneof-allof-top-level-disc')).toMatchObject({ pet_type: 'CatNoDisc' });
    expect(bodyOf('/embedded-discriminator')).toMatchObject({ pet_type: 'Cat' });
    expect(bodyOf('/potentially-undefined-formData')).toMatchObject({ event_type: 'application_approved' });
  });

  it('discriminators.json: every body where the options can be told apart is valid; the overlapping ones fail only the exactly-one rule', async () => {
    const outcomes = await checkEveryBody(DISCRIMINATORS, discriminators);
    expect(Object.keys(outcomes).length).toBe(10);
    for (const [operation, outcome] of Object.entries(outcomes)) {
      if (OVERLAPPING.includes(operation))
        expect(outcome, operation).toMatch(
          /^rejected .*"code":"oneOf","message":"Request body must match exactly one schema in oneOf"\}\]$/,
        );
      else expect(outcome, operation).toBe('accepted');
    }
  });

  it('polymorphism.json: object choices, allOf and nested choices are valid; choices of primitives only are refused with the reason', async () => {
    const outcomes = await checkEveryBody(POLYMORPHISM, polymorphism);
    expect(outcomes).toMatchObject({
      'POST /anything/all-of-object': 'accepted',
      'POST /anything/any-of-object': 'accepted',
      'POST /anything/nested-one-of-object-ref': 'accepted',
      'POST /anything/nested-one-of-object-with-nested-one-of': 'accepted',
      'POST /any-of-with-type': 'accepted',
      'POST /one-of-with-type': 'accepted',
      'POST /anything/any-of-primitive':
        'refused: is anyOf of a string, an integer — no single JSON object form',
      'POST /anything/one-of-primitive':
        'refused: is oneOf of a string, an integer — no single JSON object form',
    });
    // Overlapping options again (`{a}` is also a valid "second type", which requires
    // nothing; Andalucia and Baltimore require the same two fields; Cat and Dog as above):
    // no body passes a validator without discriminators, short of a field meant to break
    // the other option, which Tally never sends.
    const rejected = Object.entries(outcomes).filter(([, outcome]) => outcome.startsWith('rejected'));
    expect(rejected.map(([operation]) => operation).sort()).toEqual([
      'PATCH /pets',
      'POST /anything/one-of-object',
      'POST /anything/one-of-object-ref',
      'POST /one-of-complex',
    ]);
    for (const [operation, outcome] of rejected)
      expect(outcome, operation).toMatch(
        /"code":"oneOf","message":"Request body must match exactly one schema in oneOf"\}\]$/,
      );
    expect(outcomes['PATCH /pets']).toMatch(/^rejected \{"pet_type":"Cat",/);
  });
});
