import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFailOpenReason } from '../../src/core/fail-open-reasons.js';
import { parseDigestPayload } from '../../src/packs/records/digests/digest-payload.js';
import { recordDigestFromHook } from '../../src/packs/records/digests/record-digest-from-hook.js';
import { tempDir } from '../helpers.js';
import { LIMIT_MS, runHook } from '../packs/records/hostile-fixture.js';

const deep = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let index = 0; index < depth; index++) value = index % 2 ? [value] : { a: value };
  return value;
};

/** Strings that stress paths and regexes: NULs, huge runs, wrappers, placeholders, links. */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '/proc',
    '/proc/self',
    '/dev',
    '/',
    '',
    '.',
    '..',
    '/tmp/a\u0000b',
    `/${'a'.repeat(5000)}`,
    `/${'a/'.repeat(3000)}`,
    '${CLAUDE_SESSION_ID}',
    '<skill-result>GOAL: x</skill-result>',
    `<skill-result>${'</skill-result> '.repeat(2000)}`,
    `Skill completed${':'.repeat(5000)}`,
    'Launching skill: how-do-i',
    ' '.repeat(100_000),
  ),
);

const jsonValue = fc.oneof(
  { depthSize: 'small' },
  fc.jsonValue({ maxDepth: 4 }),
  hostileString,
  fc.integer().map((depth) => deep(Math.abs(depth) % 2000, 'x')),
);

const hookPayload = fc.oneof(
  // Realistic shapes with any field of any type.
  fc.record(
    {
      session_id: fc.oneof(hostileString, jsonValue),
      cwd: fc.oneof(hostileString, jsonValue),
      tool_name: fc.oneof(fc.constant('Skill'), jsonValue),
      tool_response: fc.oneof(
        hostileString,
        jsonValue,
        fc.record(
          {
            status: fc.oneof(fc.constant('forked'), jsonValue),
            success: fc.oneof(fc.boolean(), jsonValue),
            result: fc.oneof(hostileString, jsonValue),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: [] },
  ),
  jsonValue,
);

describe('hook payloads, fuzzed in process', () => {
  it('property: any payload text yields a reading, never a throw', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hookPayload.map((value) => JSON.stringify(value) ?? 'undefined'),
          fc.string(),
        ),
        (text) => {
          const payload = parseDigestPayload(text);
          return ['digest', 'declined', 'unreadable'].includes(payload.kind);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: recordDigestFromHook never throws, logs only known reasons, and writes only under an owned .tally', () => {
    const owned = tempDir();
    mkdirSync(join(owned, '.tally'));
    const unowned = tempDir();
    const state = tempDir('tally-state-');
    const env = { XDG_STATE_HOME: state, HOME: state };
    fc.assert(
      fc.property(
        hookPayload,
        fc.constantFrom(owned, unowned, join(unowned, 'missing')),
        fc.boolean(),
        (value, dir, cwdFromPayload) => {
          const body =
            value && typeof value === 'object' && !Array.isArray(value) && cwdFromPayload
              ? { ...value, cwd: dir }
              : value;
          const started = performance.now();
          const report = recordDigestFromHook(JSON.stringify(body) ?? '', { env, cwd: dir });
          expect(performance.now() - started).toBeLessThan(2_000);
          for (const line of report.failOpens) expect(isFailOpenReason(line.why), line.why).toBe(true);
          if (report.written) expect(report.written.startsWith(join(owned, '.tally', 'digests'))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('hook payloads, fuzzed through the built CLI (a handful: each spawn costs ~100 ms)', () => {
  it('property: exit 0 within the limit, whatever arrives on stdin', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hookPayload.map((value) => JSON.stringify(value) ?? ''),
          fc.string({ unit: 'binary', maxLength: 200 }),
        ),
        async (input) => {
          const run = await runHook(input);
          expect(run.signal).toBeNull();
          expect(run.code).toBe(0);
          expect(run.ms).toBeLessThan(LIMIT_MS);
          expect(run.stderr).not.toMatch(/\n\s+at /);
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);
});
