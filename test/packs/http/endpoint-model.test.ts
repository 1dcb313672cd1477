import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCaptures } from '../../../src/packs/http/captures/load-captures.js';
import { CaptureIndex } from '../../../src/packs/http/endpoints/capture-index.js';
import { isStrongId } from '../../../src/packs/http/endpoints/id-shape.js';
import { PathNormalizer } from '../../../src/packs/http/endpoints/path-normalizer.js';
import { singular } from '../../../src/packs/http/endpoints/resource-name.js';
import { resolveScope } from '../../../src/packs/http/endpoints/scope.js';
import { tempDir } from '../../helpers.js';
import { BUNDLED_HAR, harEntry, writeHar } from './demo-fixtures.js';

describe('dynamic segments', () => {
  it.each([
    '42',
    '550e8400-e29b-41d4-a716-446655440000',
    '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    '507f1f77bcf86cd799439011',
    'deadbeefdeadbeef12',
  ])('%s is a strong id', (segment) => {
    expect(isStrongId(segment)).toBe(true);
  });

  it.each(['v1', 'v2', 'api', 'suites', 'alpha-shop', 'me'])('%s is not a strong id', (segment) => {
    expect(isStrongId(segment)).toBe(false);
  });

  it('learns slugs from positions that vary between otherwise-equal paths; words and versions stay literal', () => {
    const normalizer = new PathNormalizer([
      '/v1/alpha-shop/suites',
      '/v1/beta-blog/suites',
      '/v1/alpha-shop/tests',
      '/v2/alpha-shop/suites/12/move',
    ]);
    expect(normalizer.normalize('/v1/alpha-shop/suites')).toBe('/v1/{id}/suites');
    expect(normalizer.normalize('/v1/alpha-shop/tests')).toBe('/v1/{id}/tests');
    expect(normalizer.normalize('/v2/alpha-shop/suites/12/move')).toBe('/v2/{id}/suites/{id}/move');
    expect(normalizer.normalize('/v1/{id}/suites')).toBe('/v1/{id}/suites');
  });

  it('a varying last segment that a capture created something at is a collection, not a slug', () => {
    const paths = ['/user-groups', '/admin-groups', '/api/alpha-shop/suites', '/api/beta-blog/suites'];
    const normalizer = new PathNormalizer(paths, ['/user-groups', '/admin-groups', '/api/alpha-shop/suites']);
    expect(paths.map((path) => normalizer.normalize(path))).toEqual([
      '/user-groups',
      '/admin-groups',
      '/api/{id}/suites',
      '/api/{id}/suites',
    ]);
    // Without the creates, the same paths read as one slug position, as before.
    expect(new PathNormalizer(paths).normalize('/user-groups')).toBe('/{id}');
  });

  it('property: normalizing is idempotent and never throws', () => {
    const segment = fc.oneof(
      fc.constantFrom('api', 'v1', 'suites', 'alpha-shop', 'beta-blog', '{id}'),
      fc.integer({ min: 0, max: 99999 }).map(String),
      fc.uuid(),
      fc.stringMatching(/^[a-z0-9-]{1,12}$/),
      fc.string({ maxLength: 8 }),
    );
    const path = fc.array(segment, { maxLength: 6 }).map((segments) => `/${segments.join('/')}`);
    fc.assert(
      fc.property(fc.array(path, { maxLength: 8 }), path, (learned, probe) => {
        const normalizer = new PathNormalizer(learned);
        const once = normalizer.normalize(probe);
        return normalizer.normalize(once) === once && once.startsWith('/');
      }),
      { numRuns: 400 },
    );
  });

  it('answers a path asked again the same, also after more distinct paths than it keeps', () => {
    const normalizer = new PathNormalizer(['/v1/alpha-shop/suites', '/v1/beta-blog/suites']);
    expect(normalizer.normalize('/v1/alpha-shop/suites')).toBe('/v1/{id}/suites');
    // A long-lived server sees ever new ids: the remembered patterns are dropped, never wrong.
    for (let id = 1; id <= 5000; id++)
      expect(normalizer.normalize(`/v1/alpha-shop/suites/${id}`)).toBe('/v1/{id}/suites/{id}');
    expect(normalizer.normalize('/v1/alpha-shop/suites')).toBe('/v1/{id}/suites');
    expect(normalizer.normalize('/v1/gamma/suites')).toBe('/v1/gamma/suites');
  });

  it('singularizes resource names', () => {
    expect(['suites', 'tests', 'milestones', 'categories', 'boxes', 'status', 'suite'].map(singular)).toEqual(
      ['suite', 'test', 'milestone', 'category', 'box', 'status', 'suite'],
    );
  });
});

describe('ranked examples on the bundled HAR', () => {
  const set = loadCaptures([BUNDLED_HAR]);
  const index = new CaptureIndex(set.captures);
  const scope = resolveScope('/projects/alpha-shop', set.captures);

  it('never returns a sub-path when the path itself was captured (/suites, not /suites/101/move)', () => {
    const example = index.example('POST', '/api/alpha-shop/suites', scope);
    expect(example?.path).toBe('/api/alpha-shop/suites');
    expect(example?.status).toBe(201);
  });

  it('a success beats a newer rejection', () => {
    const rejected = set.captures.find((capture) => capture.status === 422);
    expect(rejected).toBeDefined();
    const example = index.example('POST', '/api/{id}/tests', scope);
    expect(example?.status).toBe(201);
  });

  it('accepts a pattern or a concrete path and returns the stored concrete path in scope', () => {
    const byPattern = index.example('POST', '/api/{id}/suites', scope);
    const byConcrete = index.example('POST', '/api/beta-blog/suites', scope);
    expect(byPattern?.path).toBe('/api/alpha-shop/suites');
    expect(byConcrete?.path).toBe('/api/alpha-shop/suites');
  });

  it('falls back to a deeper sub-path only when nothing shallower exists', () => {
    const example = index.example('POST', '/api/alpha-shop', scope);
    expect(example?.path.split('/').filter(Boolean)).toHaveLength(3);
    expect(example?.status).toBeLessThan(400);
  });

  it('lists endpoints once each, with {id}, reads carrying their query parameter names', () => {
    expect(index.endpointLines(scope)).toEqual([
      'POST /api/{id}/milestones',
      'POST /api/{id}/suites',
      'POST /api/{id}/suites/{id}/move',
      'POST /api/{id}/tests',
      'DELETE /api/{id}/tests/{id}',
      'GET /api/{id}/milestones',
      'GET /api/{id}/suites',
      'GET /api/{id}/tests?suite_id',
    ]);
  });
});

describe('scope', () => {
  it('picks the most selective segment, leftmost on ties; root keeps all', () => {
    const set = loadCaptures([BUNDLED_HAR]);
    expect(resolveScope('/projects/alpha-shop', set.captures)).toMatchObject({
      key: 'alpha-shop',
      fallback: false,
    });
    expect(resolveScope('/', set.captures)).toMatchObject({ fallback: false });
    expect(resolveScope('/', set.captures).key).toBeUndefined();
  });

  it('a scope that matches nothing falls back to everything, loudly', () => {
    const set = loadCaptures([BUNDLED_HAR]);
    const scope = resolveScope('/projects/gamma-shop', set.captures);
    expect(scope.fallback).toBe(true);
    expect(scope.note).toMatch(/matched no captured write, so ALL captured endpoints are listed/);
  });

  it('keeps cross-project endpoints out of a project scope', () => {
    const dir = tempDir();
    const har = writeHar(dir, 'two.har', [
      harEntry('POST', 'http://app.test/api/alpha-shop/suites', 201, {
        body: { title: 'a' },
        response: { data: { id: 1 } },
      }),
      harEntry('POST', 'http://app.test/api/beta-blog/suites', 201, {
        body: { title: 'b' },
        response: { data: { id: 2 } },
        at: '2026-11-02T00:00:00.000Z',
      }),
      harEntry('POST', 'http://app.test/api/beta-blog/tags', 201, {
        body: { name: 't' },
        response: { data: { id: 3 } },
      }),
    ]);
    const set = loadCaptures([har]);
    const index = new CaptureIndex(set.captures);
    const scope = resolveScope('/projects/alpha-shop/board', set.captures);
    expect(index.endpointLines(scope)).toEqual(['POST /api/{id}/suites']);
    // beta-blog's capture is newer, but the in-scope one is the example.
    expect(index.example('POST', '/api/{id}/suites', scope)?.path).toBe('/api/alpha-shop/suites');
  });
});

describe('the example of an endpoint', () => {
  it('is its newest successful capture, by time, whatever offset each capture was written with', () => {
    const dir = tempDir();
    const suite = (title: string, at: string) =>
      harEntry('POST', 'http://app.test/api/alpha-shop/suites', 201, {
        body: { title },
        response: { data: { id: 1 } },
        at,
      });
    // As text `…03T01:00:00+02:00` sorts after `…02T23:30:00Z`, but it is half an hour earlier.
    const har = writeHar(dir, 'times.har', [
      suite('oldest', '2026-11-01T10:00:00.000Z'),
      suite('earlier', '2026-11-03T01:00:00+02:00'),
      suite('newest', '2026-11-02T23:30:00.000Z'),
      suite('middle', '2026-11-02T12:00:00.000Z'),
    ]);
    const set = loadCaptures([har]);
    const index = new CaptureIndex(set.captures);
    const scope = resolveScope('/projects/alpha-shop', set.captures);
    expect(index.example('POST', '/api/alpha-shop/suites', scope)?.requestBody).toEqual({ title: 'newest' });
    expect(
      index
        .endpoint('POST', '/api/alpha-shop/suites')
        ?.examples.map((capture) => (capture.requestBody as { title: string }).title),
    ).toEqual(['newest', 'earlier', 'middle', 'oldest']);
  });
});
