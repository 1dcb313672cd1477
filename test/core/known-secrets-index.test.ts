import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnownSecretsIndex } from '../../src/core/known-secrets-index.js';
import { createRedactor, REDACTED } from '../../src/core/redact.js';

const indexOf = (secrets: string[]) => {
  const index = new KnownSecretsIndex();
  for (const secret of new Set(secrets)) index.add(secret);
  return index;
};
// Secrets over `abc`, filler over `xyz`: a filler never holds a secret.
const secret = fc.stringMatching(/^[abc]{6,14}$/);
const filler = fc.stringMatching(/^[xyz]{0,8}$/);
// Few secrets are looked for one by one; many through the index. Both must hold.
const secretSets = fc.oneof(
  fc.uniqueArray(secret, { minLength: 1, maxLength: 10 }),
  fc.uniqueArray(secret, { minLength: 60, maxLength: 120 }),
);

/** The oracle: each character any occurrence of a secret covers is hidden, each run of them by one mark. */
function maskedByOccurrences(text: string, secrets: string[]): string {
  const hidden = new Array<boolean>(text.length).fill(false);
  for (const known of new Set(secrets))
    for (let at = text.indexOf(known); at >= 0; at = text.indexOf(known, at + 1))
      hidden.fill(true, at, at + known.length);
  return [...text].map((char, at) => (!hidden[at] ? char : hidden[at - 1] ? '' : REDACTED)).join('');
}

describe('known secrets are found in any text, however many are known', () => {
  it('every known secret standing in a text is replaced, and nothing else', () => {
    fc.assert(
      fc.property(secretSets, fc.array(fc.tuple(filler, fc.nat()), { maxLength: 12 }), (secrets, pieces) => {
        const text = pieces.map(([words, pick]) => `${words}-${secrets[pick % secrets.length]}`).join('.');
        const expected = pieces.map(([words]) => `${words}-${REDACTED}`).join('.');
        expect(indexOf(secrets).scrub(text, REDACTED)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('overlapping and nested secrets leave no secret visible', () => {
    // Secrets cut from the text itself: they stand in it, overlap and nest.
    const cuts = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 3, max: 14 })), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.stringMatching(/^[ab]{20,120}$/), cuts, fc.boolean(), (text, at, many) => {
        const secrets = at.map(([start, length]) => text.slice(start % (text.length - 6)).slice(0, length));
        const usable = secrets.filter((known) => known.length >= 3);
        // Many: past the one-by-one threshold, with secrets that never occur (`c…`).
        const padding = many ? Array.from({ length: 60 }, (_, n) => `cccccc${n}`) : [];
        const out = indexOf([...usable, ...padding]).scrub(text, REDACTED);
        for (const known of usable) expect(out.includes(known), `${known} in ${out}`).toBe(false);
        // No character of any occurrence is left: occurrences that overlap are one replacement.
        expect(out).toBe(maskedByOccurrences(text, usable));
      }),
      { numRuns: 500 },
    );
  });

  it('a text with no secret comes back as it was', () => {
    fc.assert(
      fc.property(secretSets, fc.stringMatching(/^[xyz ]{0,100}$/), (secrets, text) => {
        expect(indexOf(secrets).scrub(text, REDACTED)).toBe(text);
      }),
    );
  });

  it('a redactor that learned hundreds of rotated session values still masks the first and the last', () => {
    const redactor = createRedactor();
    const values = Array.from(
      { length: 500 },
      (_, n) => `sess-${n.toString(36).padStart(4, '0')}-rotated-value`,
    );
    for (const value of values) redactor.remember(value);
    const text = `old ${values[0]} new ${values[499]} and sess-none-of-these`;
    expect(redactor.redactText(text)).toBe(`old ${REDACTED} new ${REDACTED} and sess-none-of-these`);
  });
});
