import { describe, expect, it } from 'vitest';
import { classifyResult } from '../../src/core/classify-result.js';

describe('tool-result classification', () => {
  it.each([
    [{ ok: false }, true],
    [{ error: 'boom' }, true],
    [{ error: { code: 'X' } }, true],
    [{ exitCode: 2 }, true],
    [{ status: 404 }, true],
    [{ status: 500, ok: true }, true],
    [{ healthCheck: { status: 503 } }, true],
    [{ exitCode: 0 }, false],
    [{ status: 201 }, false],
    [{ status: 'failed-but-a-string' }, false],
    [{ data: [1, 2] }, false],
    [{ error: null }, false],
    ['plain text', false],
    [null, false],
  ])('%j → failed=%s', (result, failed) => {
    expect(classifyResult(result).failed).toBe(failed);
  });
});
