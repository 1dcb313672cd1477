import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collateAscii } from '../../../src/packs/http/endpoints/collate-ascii.js';

const sign = (value: number) => Math.sign(value);
const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const pathLike = fc.constantFrom(
  '/',
  '{',
  '}',
  '-',
  '_',
  '.',
  'a',
  'A',
  'b',
  'B',
  'z',
  'Z',
  '0',
  '9',
  'i',
  'd',
);

describe('collateAscii: localeCompare without ICU', () => {
  it('property: orders printable ASCII exactly as English localeCompare does', () => {
    fc.assert(
      fc.property(fc.array(printable, { maxLength: 12 }), fc.array(printable, { maxLength: 12 }), (a, b) => {
        const [left, right] = [a.join(''), b.join('')];
        return sign(collateAscii(left, right)) === sign(left.localeCompare(right, 'en'));
      }),
      { numRuns: 3000 },
    );
  });

  it('property: paths sharing long prefixes and differing in case sort as localeCompare sorts them', () => {
    const path = fc.array(pathLike, { minLength: 0, maxLength: 16 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.array(path, { maxLength: 20 }), (paths) => {
        const ours = [...paths].sort(collateAscii);
        const icu = [...paths].sort((a, b) => a.localeCompare(b, 'en'));
        expect(ours).toEqual(icu);
      }),
      { numRuns: 500 },
    );
  });

  it('sorts patterns the way a reader of the endpoint list expects', () => {
    const patterns = [
      '/api/{id}/tests',
      '/api/alpha-shop/suites',
      '/api/{id}/suites',
      '/API/x',
      '/api/Suites',
      '/api',
    ];
    expect([...patterns].sort(collateAscii)).toEqual([
      '/api',
      '/api/{id}/suites',
      '/api/{id}/tests',
      '/api/alpha-shop/suites',
      '/api/Suites',
      '/API/x',
    ]);
  });

  it('falls back to localeCompare beyond ASCII', () => {
    expect(sign(collateAscii('/café', '/cafe'))).toBe(sign('/café'.localeCompare('/cafe')));
    expect(sign(collateAscii('/é', '/f'))).toBe(-1);
    expect(collateAscii('same', 'same')).toBe(0);
  });
});
