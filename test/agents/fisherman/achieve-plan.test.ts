import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSpecRequest } from '../../../src/agents/fisherman/plan-spec-request.js';
import { ApiSpecIndex } from '../../../src/packs/http/openapi/api-spec-index.js';
import { loadApiSpecs } from '../../../src/packs/http/openapi/load-api-specs.js';

/** A Swagger 2.0 or OpenAPI 3.0 document with the given create operations, from a temp file. */
async function specWith(paths: Record<string, unknown>, version: '2.0' | '3.0' = '3.0') {
  const dir = mkdtempSync(join(tmpdir(), 'tally-plan-'));
  const document =
    version === '2.0'
      ? { swagger: '2.0', info: { title: 't', version: '1' }, paths }
      : { openapi: '3.0.3', info: { title: 't', version: '1' }, paths };
  writeFileSync(join(dir, 'api.json'), JSON.stringify(document));
  return new ApiSpecIndex(await loadApiSpecs([join(dir, 'api.json')]));
}

const body = (schema: unknown) => ({
  requestBody: { content: { 'application/json': { schema } } },
  responses: { '201': { description: 'created' } },
});
const noScope = { path: '', fallback: false };

describe('planning from OpenAPI alone', () => {
  it.each(['petId', 'pet_id', 'pet'])(
    'links a child by a body field named after the parent (%s)',
    async (field) => {
      const spec = await specWith({
        '/pets': {
          post: body({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }),
        },
        '/visits': {
          post: body({
            type: 'object',
            required: ['reason', field],
            properties: {
              reason: { type: 'string', enum: ['checkup', 'surgery'] },
              [field]: { type: 'integer' },
            },
          }),
        },
      });
      const planned = planSpecRequest(
        { count: 2, type: 'pets', children: { count: 3, type: 'visits' } },
        spec,
        noScope,
      );
      expect(planned).toMatchObject({
        plan: {
          parent: { type: 'pets', count: 2, example: { path: '/pets', requestBody: { name: 'tally' } } },
          child: {
            type: 'visits',
            count: 3,
            link: { kind: 'body', field, numeric: true },
            example: { path: '/visits', requestBody: { reason: 'checkup' } },
          },
        },
      });
    },
  );

  it('links by path parameter and fills other parameters from the scope (Swagger 2.0)', async () => {
    const parameter = (name: string) => ({ name, in: 'path', required: true, type: 'string' });
    const spec = await specWith(
      {
        '/shops/{shop}/owners': {
          post: {
            parameters: [parameter('shop'), { name: 'body', in: 'body', schema: { type: 'object' } }],
            responses: { '201': { description: 'ok' } },
          },
        },
        '/shops/{shop}/owners/{ownerId}/pets': {
          post: {
            parameters: [parameter('shop'), parameter('ownerId')],
            responses: { '201': { description: 'ok' } },
          },
        },
      },
      '2.0',
    );
    const planned = planSpecRequest({ count: 1, type: 'owner', children: { count: 2, type: 'pets' } }, spec, {
      path: '/shops/acme',
      key: 'acme',
      fallback: false,
    });
    expect(planned).toMatchObject({
      plan: {
        parent: { example: { path: '/shops/acme/owners' } },
        child: { link: { kind: 'path', index: 3 }, example: { path: '/shops/acme/owners/0/pets' } },
      },
    });
  });

  // The example `ownerId` names an owner that need not exist: the plan finds or makes one,
  // unless the request names the owner or --scope gives it.
  it('a parent id in the create path: a container to find or make; the named owner or the scope fills it instead', async () => {
    const spec = await specWith({
      '/owners': { post: body({ type: 'object', properties: { name: { type: 'string' } } }) },
      '/owners/{ownerId}/pets': {
        parameters: [
          { name: 'ownerId', in: 'path', required: true, example: 7, schema: { type: 'integer' } },
        ],
        post: body({ type: 'object', properties: { name: { type: 'string' } } }),
      },
    });
    const implied = planSpecRequest({ count: 3, type: 'pets' }, spec, noScope);
    expect(implied).toMatchObject({
      plan: {
        parent: { example: { path: '/owners/0/pets' } },
        container: { type: 'owners', example: { path: '/owners' }, link: { kind: 'path', index: 1 } },
      },
    });
    expect(implied).not.toHaveProperty('plan.container.id');
    const named = planSpecRequest(
      { count: 3, type: 'pets', parent: { type: 'owner', id: '2' } },
      spec,
      noScope,
    );
    expect(named).toMatchObject({ plan: { container: { type: 'owner', id: '2' } } });
    const scoped = planSpecRequest({ count: 3, type: 'pets' }, spec, {
      path: '/owners/2',
      key: '2',
      fallback: false,
    });
    expect(scoped).toMatchObject({ plan: { parent: { example: { path: '/owners/2/pets' } } } });
    expect(scoped).not.toHaveProperty('plan.container');
  });

  it('says exactly why it cannot plan: no creator, no link, an unfillable parameter', async () => {
    const spec = await specWith({
      '/pets': { post: body({ type: 'object' }) },
      '/toys': { post: body({ type: 'object', properties: { color: { type: 'string' } } }) },
      '/rooms/{roomId}/beds': { post: body({ type: 'object' }) },
    });
    expect(planSpecRequest({ count: 1, type: 'cars' }, spec, noScope)).toEqual({
      error: expect.stringMatching(
        /no operation of the OpenAPI documents creates "cars" \(creatable: pets, toys, beds\)/,
      ),
    });
    expect(
      planSpecRequest({ count: 1, type: 'pets', children: { count: 1, type: 'toys' } }, spec, noScope),
    ).toEqual({
      error: expect.stringMatching(/cannot tell how a toys links to its pets/),
    });
    // A POST to an item path updates that item: it is never offered as a way to create.
    const updatesOnly = await specWith({ '/pet/{petId}': { post: body({ type: 'object' }) } });
    expect(planSpecRequest({ count: 1, type: 'pet' }, updatesOnly, noScope)).toEqual({
      error: 'no operation of the OpenAPI documents creates "pet" (creatable: nothing)',
    });
    expect(planSpecRequest({ count: 1, type: 'beds' }, spec, noScope)).toEqual({
      error: expect.stringMatching(/cannot fill \{roomId\} of POST \/rooms\/\{roomId\}\/beds.*--scope/),
    });
  });
});
