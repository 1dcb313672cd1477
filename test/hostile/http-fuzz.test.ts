import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TallyError } from '../../src/core/errors.js';
import { loadCaptures } from '../../src/packs/http/captures/load-captures.js';
import { logIn, readLoginRecipe } from '../../src/packs/http/client/login-recipe.js';
import { runTally, tempDir } from '../helpers.js';

/** Codes the CLI maps to exit 3 ("could not run at all"); a bad input file must never be one. */
const UNAVAILABLE = new Set([
  'LEDGER_UNAVAILABLE',
  'ROOT_NOT_FOUND',
  'STORE_UNREADABLE',
  'INDEX_UNAVAILABLE',
]);

/** The error is a TallyError the CLI reports as a usage error (exit 2), with a message. */
function isPreciseUsageError(error: unknown): boolean {
  return error instanceof TallyError && !UNAVAILABLE.has(error.code) && error.message.length > 10;
}

const weirdString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    'javascript:alert(1)',
    '//evil.test/x',
    'http://[::1',
    'data:,x',
    '\u0000',
    'x'.repeat(5_000),
    '__proto__',
  ),
);
const anyJson = fc.jsonValue({ maxDepth: 6 });

const entryLike = fc.record(
  {
    startedDateTime: fc.oneof(weirdString, fc.constant('2026-11-01T00:00:00Z'), anyJson),
    _resourceType: fc.oneof(fc.constantFrom('xhr', 'fetch', 'document'), anyJson),
    request: fc.oneof(
      anyJson,
      fc.record(
        {
          method: fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE', 'get'), weirdString, anyJson),
          url: fc.oneof(fc.webUrl({ withQueryParameters: true }), weirdString, anyJson),
          headers: fc.oneof(fc.array(fc.record({ name: weirdString, value: weirdString })), anyJson),
          postData: fc.oneof(
            fc.record({
              mimeType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded'),
              text: fc.oneof(
                weirdString,
                anyJson.map((value) => JSON.stringify(value)),
              ),
            }),
            anyJson,
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    response: fc.oneof(
      anyJson,
      fc.record(
        {
          status: fc.oneof(fc.integer(), fc.double(), weirdString),
          headers: fc.array(fc.record({ name: weirdString, value: weirdString })),
          content: fc.record(
            {
              text: fc.oneof(
                weirdString,
                anyJson.map((value) => JSON.stringify(value)),
              ),
              encoding: fc.constantFrom('base64', 'utf8', ''),
              mimeType: fc.oneof(fc.constantFrom('application/json', 'text/html'), weirdString),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

const harText = fc.oneof(
  weirdString,
  anyJson.map((value) => JSON.stringify(value)),
  fc
    .record({
      log: fc.oneof(
        anyJson,
        fc.record({ entries: fc.oneof(anyJson, fc.array(entryLike, { maxLength: 5 })) }),
      ),
    })
    .map((value) => JSON.stringify(value)),
);

const recipeText = fc.oneof(
  weirdString,
  anyJson.map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        url: fc.oneof(
          fc.constantFrom('/login', 'http://127.0.0.1:1/login', '//evil.test/login', ''),
          weirdString,
          anyJson,
        ),
        method: fc.oneof(fc.constantFrom('POST', 'PUT', 'GET'), anyJson),
        form: fc.oneof(
          fc.dictionary(weirdString, fc.oneof(weirdString, fc.constant('${MISSING_VAR}'))),
          anyJson,
        ),
        json: fc.oneof(fc.dictionary(weirdString, weirdString), anyJson),
        csrfPage: fc.oneof(
          fc.constantFrom('/projects', 'http://127.0.0.1:1/x', '//evil.test/x'),
          weirdString,
          anyJson,
        ),
        csrfHeader: fc.oneof(fc.constantFrom('x-csrf-token', 'bad header\n'), weirdString, anyJson),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
);

describe('fuzz: HAR documents and login recipes', () => {
  it('any HAR text loads or fails with a precise usage error, never a crash', () => {
    const path = join(tempDir(), 'fuzz.har');
    const started = performance.now();
    fc.assert(
      fc.property(harText, (text) => {
        writeFileSync(path, text);
        try {
          loadCaptures([path]);
          return true;
        } catch (error) {
          return isPreciseUsageError(error);
        }
      }),
      { numRuns: 400 },
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 15_000);

  it('any recipe text reads, then logs in against a closed port, or fails with a precise usage error', async () => {
    const path = join(tempDir(), 'login.json');
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(recipeText, async (text) => {
        writeFileSync(path, text);
        try {
          await logIn('http://127.0.0.1:1', readLoginRecipe(path), {});
          return false; // nothing listens on port 1: a login cannot succeed
        } catch (error) {
          return isPreciseUsageError(error);
        }
      }),
      { numRuns: 300 },
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 15_000);

  it('the CLI exits 2 with a message (no stack trace) for fuzzed HARs and recipes', async () => {
    const dir = tempDir();
    const samples = [
      ...fc
        .sample(harText, { numRuns: 4, seed: 9 })
        .map((text) => ({ har: text, recipe: '{"url":"/login"}' })),
      ...fc
        .sample(recipeText, { numRuns: 4, seed: 9 })
        .map((text) => ({ har: '{"log":{"entries":[]}}', recipe: text })),
    ];
    for (const [index, sample] of samples.entries()) {
      const har = join(dir, `fuzz-${index}.har`);
      const recipe = join(dir, `login-${index}.json`);
      writeFileSync(har, sample.har);
      writeFileSync(recipe, sample.recipe);
      const run = await runTally([
        'fish',
        '2 suites',
        '--captures',
        har,
        '--login',
        recipe,
        '--base-url',
        'http://127.0.0.1:1',
      ]);
      expect(run.stderr).not.toContain('unexpected error');
      expect(run.code).toBe(2);
    }
  }, 30_000);
});
