import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRONTMATTER_MAX_BYTES, parseRecord } from '../../src/packs/records/parse-record.js';
import { runBounded } from '../packs/records/hostile-fixture.js';
import { corpus } from '../packs/records/records-fixture.js';

const GOOD = 'references/decisions/use-postgres.md';

/** 20 MB of plain `key: value` lines between the fences (issue 19, item 13). */
function hugeFrontmatter(): string {
  const lines: string[] = [];
  for (let index = 0, size = 0; size < 20_000_000; index += 1) {
    const line = `k${index}: value number ${index} with some words`;
    lines.push(line);
    size += line.length + 1;
  }
  return `---\nid: DEC-huge\nkind: decision\nkeywords: [postgres]\n${lines.join('\n')}\n---\nHuge.\n`;
}

describe('a record with 20 MB of frontmatter (issue 19, item 13)', () => {
  it('is not parsed: a clear error and the record marked to be skipped, in bounded time', () => {
    const text = hugeFrontmatter();
    const parsed = parseRecord(text);
    expect(parsed.unrepresentable).toMatch(/^19532 KiB, over the 256 KiB limit$/);
    expect(parsed.errors[0]).toMatch(
      /^frontmatter is 19532 KiB, over the 256 KiB limit: .* skipped by queries/,
    );
    // Just under the cap is still read; multi-byte text is counted in bytes.
    const under = `---\nid: DEC-ok\nnote: ${'é'.repeat((FRONTMATTER_MAX_BYTES - 100) / 2)}\n---\nFine.\n`;
    expect(parseRecord(under)).toMatchObject({ fields: { id: 'DEC-ok' }, errors: [] });
    const over = `---\nid: DEC-no\nnote: ${'é'.repeat(FRONTMATTER_MAX_BYTES / 2)}\n---\nNo.\n`;
    expect(parseRecord(over).unrepresentable).toMatch(/over the 256 KiB limit/);
  });

  it('the first query skips it quickly and lint reports it', async () => {
    const root = corpus();
    writeFileSync(join(root, 'references', 'decisions', 'huge.md'), hugeFrontmatter());
    const query = await runBounded(['records', 'query', '--root', root, '--keyword', 'postgres']);
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toContain(GOOD);
    expect(query.stdout).not.toContain('huge.md');
    // Speed is measured, not asserted (a slow machine must not fail it); the bound only catches a hang.
    expect(query.ms).toBeLessThan(20_000);
    const lint = await runBounded(['records', 'lint', '--root', root]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toMatch(
      /^references\/decisions\/huge\.md: frontmatter is 19532 KiB, over the 256 KiB limit/m,
    );
    expect(lint.ms).toBeLessThan(20_000);
    console.log(`20 MB frontmatter: first query ${query.ms.toFixed(0)} ms, lint ${lint.ms.toFixed(0)} ms`);
  }, 30_000);
});
