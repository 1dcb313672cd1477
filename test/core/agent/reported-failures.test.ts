import { describe, expect, it } from 'vitest';
import { isReported, type UnrecoveredFailure } from '../../../src/core/agent/run-status.js';

const failure = (intent: string, description: string): UnrecoveredFailure => ({
  seq: 1,
  tool: 'request',
  intent,
  description,
});

describe('a reported failure is matched by its trimmed words', () => {
  it('a padded type word matches the last word of the failure', () => {
    expect(
      isReported(failure('POST /suites', 'POST /suites → 403: Forbidden'), [
        { type: ' Forbidden\t', reason: 'r' },
      ]),
    ).toBe(true);
  });
});
