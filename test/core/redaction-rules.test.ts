import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretName, REDACTED } from '../../src/core/redact.js';

describe('redaction rules', () => {
  it('placeholder', () => {
    expect(isSecretName('password')).toBe(true);
    expect(createRedactor().redactText('x')).toBe('x');
    expect(REDACTED).toBe('[redacted]');
  });
});
