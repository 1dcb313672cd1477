// `fitsHar` is the HAR schema's rules written by hand so a good capture skips zod (issue 22); the
// schema stays the source of truth. These properties hold the two to the same verdict on
// HAR-shaped values with any field missing or of a wrong type, and to the same fields read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureFormatError } from '../../../src/packs/http/captures/capture-error.js';
import { fitsHar, harSchema, parseHar } from '../../../src/packs/http/captures/parse-har.js';

// Every kind of JSON value (and undefined, NaN, an unsafe integer): what a wrong field may hold.
const wrong = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(''),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constant(2 ** 60),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string(), { maxLength: 2 }),
);
// Mostly the right kind of value, sometimes any other: one wrong field among many valid ones is the case that matters.
const mostly = <T>(right: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 12, arbitrary: right }, { weight: 1, arbitrary: wrong });
const optional = <T>(right: fc.Arbitrary<T>) => fc.option(right, { nil: undefined, freq: 3 });
const text = fc.string({ maxLength: 6 });
const nameValue = mostly(fc.record({ name: mostly(text), value: mostly(text) }));
const headers = mostly(optional(fc.array(nameValue, { maxLength: 3 })));
// A record whose keys may be absent (as in JSON), holding `undefined` when fast-check writes one.
const loose = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) =>
  fc.record(shape, { requiredKeys: [] });

const entry = mostly(
  fc.record({
    startedDateTime: mostly(optional(text)),
    _resourceType: mostly(optional(text)),
    extra: fc.anything({ maxDepth: 1 }),
    request: mostly(
      fc.record({
        method: mostly(fc.constantFrom('GET', 'POST', '')),
        url: mostly(fc.constantFrom('http://127.0.0.1/a', '', 'x')),
        headers,
        postData: mostly(optional(loose({ mimeType: mostly(text), text: mostly(text) }))),
      }),
    ),
    response: mostly(
      fc.record({
        status: mostly(fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constant(-0), fc.constant(1.5))),
        headers,
        content: mostly(
          optional(loose({ mimeType: mostly(text), text: mostly(text), encoding: mostly(text) })),
        ),
      }),
    ),
  }),
);
const har = mostly(
  fc.record({ log: mostly(fc.record({ entries: mostly(fc.array(entry, { maxLength: 4 })) })) }),
);

// What parseHar reads of an entry, with the schema's default for absent headers.
type Fields = Record<string, unknown>;
interface ReadEntry {
  startedDateTime?: string;
  _resourceType?: string;
  request: { method: string; url: string; headers?: unknown[]; postData?: Fields };
  response: { status: number; headers?: unknown[]; content?: Fields };
}

function readFields(value: unknown) {
  const { log } = value as { log: { entries: ReadEntry[] } };
  return log.entries.map((e) => ({
    startedDateTime: e.startedDateTime,
    resourceType: e._resourceType,
    method: e.request.method,
    url: e.request.url,
    requestHeaders: e.request.headers ?? [],
    post: [e.request.postData?.mimeType, e.request.postData?.text],
    status: e.response.status,
    responseHeaders: e.response.headers ?? [],
    content: [e.response.content?.mimeType, e.response.content?.text, e.response.content?.encoding],
  }));
}

describe('fitsHar', () => {
  it('accepts exactly what the HAR schema accepts, and reads the same fields as its output', () => {
    const verdicts = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(har, (value) => {
        const zod = harSchema().safeParse(value);
        expect(fitsHar(value)).toBe(zod.success);
        if (zod.success) {
          verdicts.accepted += 1;
          expect(readFields(value)).toEqual(readFields(zod.data));
        } else verdicts.refused += 1;
      }),
      { numRuns: 3000 },
    );
    // Both verdicts were exercised often, or the property said little.
    expect(verdicts.accepted).toBeGreaterThan(300);
    expect(verdicts.refused).toBeGreaterThan(300);
  });

  it('agrees on JSON text too (absent keys, no undefined), where parseHar reports the schema’s message', () => {
    fc.assert(
      fc.property(har, (value) => {
        const json = JSON.stringify(value) ?? 'null';
        const zod = harSchema().safeParse(JSON.parse(json));
        expect(fitsHar(JSON.parse(json))).toBe(zod.success);
        if (zod.success) return;
        // A refused capture still gets zod's first problem and where it is.
        const thrown = (() => {
          try {
            parseHar(json, 'h.har');
          } catch (error) {
            return error;
          }
        })();
        expect(thrown).toBeInstanceOf(CaptureFormatError);
        expect((thrown as Error).message).toContain(zod.error.issues[0]?.message);
      }),
      { numRuns: 1000 },
    );
  });

  it('a wrong type deep in one entry is still reported where it is', () => {
    const bad = {
      log: {
        entries: [{ request: { method: 'GET', url: 'http://127.0.0.1/' }, response: { status: '200' } }],
      },
    };
    expect(fitsHar(bad)).toBe(false);
    expect(() => parseHar(JSON.stringify(bad), 'h.har')).toThrow(/log\.entries\[0\]\.response\.status/);
  });
});
