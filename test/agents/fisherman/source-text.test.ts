import { describe, expect, it } from 'vitest';
import {
  commentText,
  jsIdentifier,
  jsKey,
  jsString,
  jsValue,
} from '../../../src/agents/fisherman/emit/source-text.js';

/** What the emitted source evaluates to: the serializer's output read back as JavaScript. */
const evaluate = (source: string): unknown => new Function(`return (${source});`)();

// Issue 19, item 1: the one serializer between untrusted values and generated source. Exact
// outputs pinned, so a weaker escape cannot pass (mutation testing, acceptance 3).
describe('jsString', () => {
  it.each([
    ['plain', '"plain"'],
    ['', '""'],
    [' ~', '" ~"'], // both ends of printable ASCII stay as they are
    ['line\nbreak\ttab', '"line\\nbreak\\ttab"'],
    ['\u2028\u2029', '"\\u2028\\u2029"'],
    ['\u007f\u0080', '"\\u007f\\u0080"'], // DEL and the first non-ASCII code point
    ['\u001f', '"\\u001f"'],
    ['é', '"\\u00e9"'], // padded to four hex digits
    ['\u0a00', '"\\u0a00"'],
    ['ꙮ', '"\\ua66e"'],
    ['😀', '"\\ud83d\\ude00"'], // each UTF-16 unit on its own
    ['a*/b*/c', '"a*\\/b*\\/c"'], // every comment end, not the first only
    ['</script><', '"\\u003c/script>\\u003c"'],
    ['quote " and \\', '"quote \\" and \\\\"'],
  ])('%j → %s', (value, literal) => {
    expect(jsString(value)).toBe(literal);
    expect(evaluate(jsString(value))).toBe(value);
  });

  it('writes nothing outside printable ASCII, whatever the input', () => {
    const every = Array.from({ length: 0x3000 }, (_, code) => String.fromCharCode(code)).join('');
    const literal = jsString(every);
    expect(literal).toMatch(/^[\x20-\x7e]*$/);
    expect(literal).not.toContain('*/');
    expect(literal).not.toContain('<');
    expect(evaluate(literal)).toBe(every);
  });
});

describe('jsKey', () => {
  it('quotes every key, and writes __proto__ as a computed key so it stays an own field', () => {
    expect(jsKey('a b')).toBe('"a b"');
    expect(jsKey('__proto__')).toBe('["__proto__"]');
    expect(jsKey('__proto__x')).toBe('"__proto__x"');
  });
});

describe('jsValue', () => {
  it.each([
    ['a\u2028', '"a\\u2028"'],
    [null, 'null'],
    [undefined, 'null'],
    [0, '0'],
    [-3.5, '-3.5'],
    [Number.NaN, 'null'],
    [Number.POSITIVE_INFINITY, 'null'],
    [true, 'true'],
    [false, 'false'],
    [[], '[]'],
    [[1, 'x', null], '[1, "x", null]'],
    [{}, '{  }'],
    [{ a: 1, b: [true] }, '{ "a": 1, "b": [true] }'],
    [{ a: undefined, f: () => 1, b: 2 }, '{ "b": 2 }'],
    [10n, 'null'],
    [Symbol('s'), 'null'],
  ])('%s → %s', (value, literal) => {
    expect(jsValue(value)).toBe(literal);
  });

  it('a JSON body read back equals the body, __proto__ as an own field included', () => {
    const body = JSON.parse('{"__proto__":{"admin":true},"name":"x\\u2028*/","list":[{"</a>":1.5}]}');
    const back = evaluate(jsValue(body)) as Record<string, unknown>;
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(JSON.stringify(back)).toBe(JSON.stringify(body));
  });
});

describe('commentText', () => {
  it('is the escaped string form without its quotes: one line, no comment end', () => {
    expect(commentText('http://h/\u2028require("x")*/')).toBe('http://h/\\u2028require(\\"x\\")*\\/');
    expect(commentText('')).toBe('');
    expect(commentText('a')).toBe('a');
  });
});

describe('jsIdentifier', () => {
  it.each(['item', 'Item_2', '_', 'Z', 'a1'])('accepts %j', (name) => {
    expect(jsIdentifier(name)).toBe(name);
  });

  it.each(['', '1a', 'a-b', 'a b', 'a\n', '\na', 'é', 'a;b'])('refuses %j, naming it escaped', (name) => {
    expect(() => jsIdentifier(name)).toThrow(`Not a safe identifier for generated code: ${jsString(name)}`);
  });
});
