import { describe, expect, it } from 'vitest';
import { jsonSafe } from '../../src/core/invoke-tool.js';

describe('jsonSafe', () => {
  it('returns the very value when JSON can carry it, a shared (not cyclic) object included', () => {
    const shared = { id: 1 };
    const value = { a: shared, b: [shared, 'x', null, 2, true], when: new Date(0) };
    expect(jsonSafe(value)).toBe(value);
  });

  it('copies what holds a BigInt, a function, a symbol or a cycle, however deep', () => {
    expect(jsonSafe({ list: [{ n: 1n }] })).toEqual({ list: [{ n: '1' }] });
    expect(jsonSafe([[() => 1]])).toEqual([[undefined]]);
    expect(jsonSafe({ deep: { s: Symbol('s') } })).toEqual({ deep: { s: undefined } });
    const cycle: unknown[] = [];
    cycle.push({ back: cycle });
    expect(jsonSafe(cycle)).toEqual([{ back: '[cycle]' }]);
  });
});
