import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempLedger } from '../helpers.js';
import { buildFixture, workspace } from '../packs/workspace/workspace-fixture.js';

describe('fs_grep cannot block the event loop', () => {
  it('a catastrophic pattern is stopped at its deadline with SEARCH_TIMEOUT while other calls keep answering', async () => {
    const { root } = buildFixture();
    writeFileSync(join(root, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    writeFileSync(join(root, 'ok.txt'), 'fine\n');
    const { call } = await workspace(root, tempLedger(), { searchTimeoutMs: 1500 });
    const started = performance.now();
    const grep = call('fs_grep', { pattern: '(a+)+$' });
    // Meanwhile the main thread is free: a read answers, and timers fire on time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const readStarted = performance.now();
    const read = await call('fs_read', { path: 'ok.txt' });
    expect(performance.now() - readStarted).toBeLessThan(100);
    expect(read.result).toMatchObject({ content: 'fine' });
    const record = await grep;
    const elapsed = performance.now() - started;
    expect(record.error).toMatchObject({ code: 'SEARCH_TIMEOUT' });
    expect(record.error?.message).toMatch(/literal: true/);
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(5000);
  });

  it('the same pattern on harmless text still works (full JavaScript regex syntax, lookarounds included)', async () => {
    const { root } = buildFixture();
    writeFileSync(join(root, 'fine.txt'), 'aaa\nfoo(bar)\n');
    const { call } = await workspace(root, tempLedger());
    expect((await call('fs_grep', { pattern: '(a+)+$' })).result).toMatchObject({
      matches: [{ path: 'fine.txt', line: 1, text: 'aaa' }],
    });
    expect((await call('fs_grep', { pattern: '(?<=foo\\()bar' })).result).toMatchObject({
      matches: [{ path: 'fine.txt', line: 2 }],
    });
  });
});
