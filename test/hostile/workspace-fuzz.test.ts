import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempLedger } from '../helpers.js';
import { buildFixture, workspace } from '../packs/workspace/workspace-fixture.js';

const canMknod = process.getuid?.() === 0;

describe('fs tools, fuzzed arguments', () => {
  it('property: no crash, every failure a tool error with a code, no call over 10 s', async () => {
    const { root } = buildFixture();
    execFileSync('mkfifo', [join(root, 'pipe')]);
    if (canMknod) execFileSync('mknod', [join(root, 'zero'), 'c', '1', '5']);
    writeFileSync(join(root, 'lines.txt'), 'a\nb\r\nc');
    writeFileSync(join(root, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    const { call } = await workspace(root, tempLedger(), { searchTimeoutMs: 2000 });

    const segment = fc.oneof(
      fc.constantFrom(
        '.',
        '..',
        '',
        'pipe',
        'zero',
        'src',
        'lines.txt',
        'evil.txt',
        'link-out',
        'loop1',
        '\0',
        '.notes.tally-0123456789ab.tmp',
      ),
      fc.string({ maxLength: 8 }),
    );
    const path = fc
      .tuple(fc.boolean(), fc.array(segment, { maxLength: 4 }))
      .map(([absolute, segments]) => `${absolute ? '/' : ''}${segments.join('/')}`);
    const line = fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constant(2 ** 31), fc.constant(undefined));
    const pattern = fc.oneof(
      fc.constantFrom('(a+)+$', '(x+x+)+y', '([a-z]+)*!', '(', '[', '\\', 'a{99999}', '.*'),
      fc.string({ minLength: 1, maxLength: 12 }),
    );
    const callArbitrary = fc.oneof(
      fc.record({ tool: fc.constant('fs_read'), input: fc.record({ path, startLine: line, endLine: line }) }),
      fc.record({
        tool: fc.constant('fs_write'),
        input: fc.record({ path, content: fc.string({ maxLength: 20 }) }),
      }),
      fc.record({
        tool: fc.constant('fs_edit'),
        input: fc.oneof(
          fc.record({ path, startLine: line, endLine: line, newText: fc.string({ maxLength: 10 }) }),
          fc.record({ path, oldString: fc.string({ maxLength: 4 }), newString: fc.string({ maxLength: 4 }) }),
        ),
      }),
      fc.record({ tool: fc.constantFrom('fs_list', 'fs_tree'), input: fc.record({ path }) }),
      fc.record({
        tool: fc.constant('fs_glob'),
        input: fc.record({ pattern: fc.string({ maxLength: 10 }), path }),
      }),
      fc.record({
        tool: fc.constant('fs_grep'),
        input: fc.record({
          pattern,
          path,
          literal: fc.boolean(),
          glob: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
        }),
      }),
      fc.record({ tool: fc.constant('fs_move'), input: fc.record({ from: path, to: path }) }),
      fc.record({ tool: fc.constant('fs_delete'), input: fc.record({ path, recursive: fc.boolean() }) }),
    );
    let slowest = 0;
    await fc.assert(
      fc.asyncProperty(callArbitrary, async ({ tool, input }) => {
        const started = performance.now();
        const record = await call(tool, input);
        slowest = Math.max(slowest, performance.now() - started);
        expect(performance.now() - started).toBeLessThan(10_000);
        if (record.outcome === 'ok') return;
        expect(['rejected', 'error']).toContain(record.outcome);
        expect(record.error?.code, JSON.stringify({ tool, input, error: record.error })).toMatch(
          /^[A-Z][A-Z_]+$/,
        );
      }),
      { numRuns: 150 },
    );
    expect(slowest).toBeLessThan(10_000);
  }, 240_000);
});
