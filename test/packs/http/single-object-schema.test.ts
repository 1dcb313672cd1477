import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planSpecRequest } from '../../../src/agents/fisherman/plan-spec-request.js';
import type { ApiOperation, JsonSchema } from '../../../src/packs/http/openapi/api-operation.js';
import { ApiSpecIndex } from '../../../src/packs/http/openapi/api-spec-index.js';
import { sampleValue } from '../../../src/packs/http/openapi/sample-value.js';
import {
  MAX_COMPOSITION_DEPTH,
  singleObjectSchema,
} from '../../../src/packs/http/openapi/single-object-schema.js';

const noScope = { path: '', fallback: false };

/** An index of create operations with the given body schemas (already dereferenced, cycles allowed). */
function specOf(bodies: Record<string, JsonSchema>): ApiSpecIndex {
  const operations: ApiOperation[] = Object.entries(bodies).map(([collection, schema]) => ({
    method: 'POST',
    path: `/${collection}`,
    pattern: `/${collection}`,
    resource: collection,
    parameters: [],
    requestBody: { contentType: 'application/json', required: true, schema },
    responses: ['201'],
    source: 'test',
  }));
  return new ApiSpecIndex({ sources: ['test'], operations, servers: [] });
}

/** The body a plan for "1 <collection>" would send, or why there is no plan. */
function bodyFor(schema: JsonSchema): unknown {
  const planned = planSpecRequest({ count: 1, type: 'items' }, specOf({ items: schema }), noScope);
  return 'plan' in planned ? planned.plan.parent.example.requestBody : planned.error;
}

const item: JsonSchema = {
  type: 'object',
  required: ['title'],
  properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } },
};

describe('the single-object form of a request body', () => {
  it('of "an Item or an array of Items" (bulk or single), either order, the Item', () => {
    expect(bodyFor({ oneOf: [{ type: 'array', items: item }, item] })).toEqual({ title: 'tally' });
    expect(bodyFor({ anyOf: [item, { type: 'array', items: item }] })).toEqual({ title: 'tally' });
  });

  it('refuses a body that is only an array, or only scalars, saying what it is', () => {
    expect(bodyFor({ type: 'array', items: item })).toBe(
      'the request body of POST /items is an array (a bulk create), not a JSON object',
    );
    expect(bodyFor({ oneOf: [{ type: 'array', items: item }, { type: 'string' }] })).toBe(
      'the request body of POST /items is oneOf of an array (a bulk create), a string — no single JSON object form',
    );
  });

  it('merges allOf (required united) and leaves out read-only fields, also read-only by an allOf part', () => {
    const base = { type: 'object', properties: { created_at: { type: 'string', readOnly: true } } };
    expect(
      bodyFor({
        allOf: [
          base,
          {
            required: ['title', 'created_at', 'owner'],
            properties: {
              title: { type: 'string' },
              owner: { allOf: [{ type: 'integer' }] },
              secret: { type: 'string', writeOnly: true },
              revision: { allOf: [{ type: 'integer' }, { readOnly: true }] },
            },
          },
          { required: ['secret', 'revision'] },
        ],
      }),
    ).toEqual({ title: 'tally', owner: 1, secret: 'tally' });
  });

  it('nullable fields get real values: 3.0 nullable, 3.1 type arrays, a null option last; a null-only field null', () => {
    expect(
      bodyFor({
        type: 'object',
        required: ['a', 'b', 'c', 'd'],
        properties: {
          a: { type: 'integer', nullable: true },
          b: { type: ['null', 'string'] },
          c: { anyOf: [{ type: 'null' }, { type: 'boolean' }] },
          d: { type: 'null' },
        },
      }),
    ).toEqual({ a: 1, b: 'tally', c: false, d: null });
  });

  it('fills nested required objects all the way down, optional ones not at all', () => {
    const level = (inner: JsonSchema): JsonSchema => ({
      type: 'object',
      required: ['next'],
      properties: { next: inner, extra: { type: 'object', properties: { x: { type: 'string' } } } },
    });
    const leaf = {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string', enum: ['X1'] } },
    };
    expect(bodyFor(level(level(level(leaf))))).toEqual({ next: { next: { next: { code: 'X1' } } } });
  });

  it('a required field that refers back to its own schema stops the plan with the field, never a crash', () => {
    const node: JsonSchema = {
      type: 'object',
      required: ['title', 'parent'],
      properties: { title: { type: 'string' } },
    };
    (node.properties as Record<string, unknown>).parent = node;
    expect(bodyFor(node)).toBe(
      'cannot build a request body for POST /items: required body.parent.parent has no finite value (the schema is recursive or nested too deep there)',
    );
    // Optional, the same cycle is simply not followed.
    const optional: JsonSchema = {
      type: 'object',
      required: ['title'],
      properties: { title: { type: 'string' } },
    };
    (optional.properties as Record<string, unknown>).parent = optional;
    expect(bodyFor(optional)).toEqual({ title: 'tally' });
  });

  it('composition nested past the limit is refused with where it happened', () => {
    let schema: JsonSchema = item;
    for (let level = 0; level < MAX_COMPOSITION_DEPTH + 4; level++) schema = { oneOf: [schema] };
    expect(singleObjectSchema(schema)).toEqual({
      error: expect.stringMatching(
        /^nests oneOf\/anyOf\/allOf more than 16 levels deep \(at body(\.oneOf\[0\])+\)/,
      ),
    });
  });

  it('links a child by a relation that takes the id or the whole parent (Directus-style oneOf [integer, Parent])', () => {
    const author = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    const article = {
      type: 'object',
      required: ['title', 'author'],
      properties: {
        title: { type: 'string' },
        author: { nullable: true, oneOf: [{ type: 'integer' }, author] },
      },
    };
    const spec = specOf({
      authors: { oneOf: [{ type: 'array', items: author }, author] },
      articles: { oneOf: [{ type: 'array', items: article }, article] },
    });
    const planned = planSpecRequest(
      { count: 2, type: 'authors', children: { count: 3, type: 'articles' } },
      spec,
      noScope,
    );
    expect(planned).toMatchObject({
      plan: {
        parent: { example: { path: '/authors', requestBody: { name: 'tally' } } },
        child: { link: { kind: 'body', field: 'author', numeric: true }, example: { path: '/articles' } },
      },
    });
  });
});

// Hostile documents: whatever the schema (cycles through any keyword, deep nesting, wide
// choices, junk values), planning ends — with a body or a precise reason — and never throws.
const leafSchema = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'integer', minimum: 3 }),
  fc.constant({ type: ['null', 'number'] }),
  fc.constant({ type: 'null' }),
  fc.constant({ enum: ['a', null] }),
  fc.constant({ type: 'string', format: 'email' }),
  fc.constant({ type: 'string', pattern: '^[a-z]{2,4}-\\d+$' }),
  fc.constant({}),
  fc.constant({ readOnly: true, type: 'string' }),
  fc.constant({ type: 'array', minItems: 2, items: { type: 'string', format: 'uuid' } }),
  fc.anything().map((junk) => ({ type: junk, required: junk, properties: junk, oneOf: junk })),
);
const { schema: schemaArbitrary } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafSchema,
    fc
      .dictionary(fc.constantFrom('title', 'name', 'email', 'a', 'b', 'owner_id', 'parent'), tie('schema'), {
        maxKeys: 4,
      })
      .chain((properties) =>
        fc.subarray(Object.keys(properties)).map((required) => ({ type: 'object', properties, required })),
      ),
    fc.array(tie('schema'), { minLength: 1, maxLength: 4 }).map((options) => ({ oneOf: options })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 4 }).map((options) => ({ anyOf: options })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((parts) => ({ allOf: parts })),
    fc.record({ type: fc.constant('array'), items: tie('schema') }),
    fc.tuple(tie('schema'), fc.string()).map(([option, name]) => ({
      oneOf: [option],
      discriminator: { propertyName: name, mapping: { x: name } },
    })),
  ),
}));

/** Every object node of a schema tree, to point cycles at. */
function nodesOf(root: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const seen = new Set<unknown>();
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node)) found.push(node as Record<string, unknown>);
    stack.push(...Object.values(node));
  }
  return found;
}

/** The schema with some nodes' keywords pointed back at other nodes (ancestors included). */
const cyclicSchema = fc
  .tuple(
    schemaArbitrary,
    fc.array(
      fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('allOf', 'oneOf', 'anyOf', 'items', 'properties')),
      { maxLength: 4 },
    ),
  )
  .map(([generated, links]) => {
    // Our own copy to wire cycles into: fast-check reuses generated values while shrinking.
    const tree = structuredClone(generated);
    const root = {
      type: 'object',
      required: ['title', 'loop'],
      properties: { title: { type: 'string' }, loop: tree },
    };
    const nodes = nodesOf(root);
    for (const [from, to, keyword] of links) {
      const source = nodes[from % nodes.length] as Record<string, unknown>;
      const target = nodes[to % nodes.length];
      if (keyword === 'properties') source.properties = { back: target };
      else if (keyword === 'items') source.items = target;
      else
        source[keyword] = [target, ...(Array.isArray(source[keyword]) ? (source[keyword] as unknown[]) : [])];
    }
    return root;
  });

describe('hostile schemas (fast-check)', () => {
  it('planning a body from any schema, cyclic ones included, ends with a body or a precise reason', () => {
    fc.assert(
      fc.property(cyclicSchema, (schema) => {
        const outcome = bodyFor(schema as JsonSchema);
        if (typeof outcome === 'string')
          expect(outcome).toMatch(
            /^(the request body of POST \/items (is|nests) |cannot build a request body for POST \/items: required )/,
          );
        else expect(typeof outcome === 'object' && outcome !== null && !Array.isArray(outcome)).toBe(true);
        // What the model is shown must stay serializable: no cycle reaches a body.
        JSON.stringify(outcome);
      }),
      { numRuns: 300 },
    );
  });

  it('deep nesting of every kind ends in bounded time with a reason or a body, never a stack overflow', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('allOf', 'oneOf', 'anyOf', 'properties', 'items'), {
          minLength: 200,
          maxLength: 3000,
        }),
        (keywords) => {
          let schema: unknown = item;
          for (const keyword of keywords)
            schema =
              keyword === 'properties'
                ? { type: 'object', required: ['inner'], properties: { inner: schema } }
                : keyword === 'items'
                  ? { type: 'array', minItems: 1, items: schema }
                  : { [keyword]: [schema] };
          const outcome = bodyFor(schema as JsonSchema);
          expect(typeof outcome === 'string' || (typeof outcome === 'object' && outcome !== null)).toBe(true);
          sampleValue(schema as JsonSchema);
        },
      ),
      { numRuns: 60 },
    );
  });
});
