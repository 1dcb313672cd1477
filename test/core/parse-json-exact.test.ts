import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/core/parse-json-exact.js';

describe('JSON with integers past 2^53 keeps their exact digits', () => {
  it('a 64-bit id becomes its digits, never the neighbouring id JSON.parse rounds it to', () => {
    const text =
      '{"data":{"id":9007199254740993,"parent":-9007199254740995,"n":12,"x":1.5e300,"s":"9007199254740993"}}';
    expect(parseJsonExact(text)).toEqual({
      data: { id: '9007199254740993', parent: '-9007199254740995', n: 12, x: 1.5e300, s: '9007199254740993' },
    });
    expect(String((JSON.parse(text) as { data: { id: number } }).data.id)).toBe('9007199254740992');
  });

  it('digits inside strings (escaped quotes too) and safe numbers are as JSON.parse reads them', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        // JSON.parse's reading, but an unsafe integer written as digits is those digits.
        const expected = JSON.parse(text, (_key, item: unknown) =>
          typeof item === 'number' && !Number.isSafeInteger(item) && /^-?\d+$/.test(String(item))
            ? String(item)
            : item,
        );
        expect(parseJsonExact(text)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
    const tricky = '["a\\"12345678901234567890\\"", 12345678901234567, {"k\\\\":"1234567890123456789"}]';
    expect(parseJsonExact(tricky)).toEqual([
      'a"12345678901234567890"',
      '12345678901234567',
      { 'k\\': '1234567890123456789' },
    ]);
  });

  it('any unsafe integer keeps its digits, wherever it stands', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }), fc.boolean(), (big, negative) => {
        const digits = `${negative ? '-' : ''}${big}`;
        expect(parseJsonExact(`{"a":[1,${digits},"x"]}`)).toEqual({ a: [1, digits, 'x'] });
      }),
    );
  });

  it('malformed JSON still throws SyntaxError', () => {
    expect(() => parseJsonExact('{"id": 90071992547409931,')).toThrow(SyntaxError);
  });
});
