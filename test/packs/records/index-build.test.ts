import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFileSync } from '../../../src/core/io/read-regular-file.js';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { fastFrontmatter } from '../../../src/packs/records/fast-frontmatter.js';
import { glossOf } from '../../../src/packs/records/gloss.js';
import { IndexedRecords } from '../../../src/packs/records/indexed-records.js';
import { FRONTMATTER_MAX_BYTES, parseRecord } from '../../../src/packs/records/parse-record.js';
import { plainFrontmatter } from '../../../src/packs/records/plain-frontmatter.js';
import { readRegularFile } from '../../../src/packs/records/read-regular-file.js';
import { listStores } from '../../../src/packs/records/stores.js';
import { TALLY_BIN, tempDir } from '../../helpers.js';
import { CACHE, corpus, tally } from './records-fixture.js';

// The short cuts of an index build (issue 22): each must give what the long way gave.

describe('index build short cuts', () => {
  it('frontmatter the fast reader takes is used as read, and is what the JSON-safe copy would give', () => {
    const text =
      'id: A-1\nkind: procedure\nkeywords: [db, lock]\nlinks: { decisions: [D-1, D-2] }\nowner: ops';
    const parsed = parseRecord(`---\n${text}\n---\n# Body\n`);
    const copied = plainFrontmatter(fastFrontmatter(text)) as { value: Record<string, unknown> };
    expect(parsed.errors).toEqual([]);
    expect(parsed.fields).toEqual({
      id: 'A-1',
      kind: 'procedure',
      keywords: ['db', 'lock'],
      links: { decisions: ['D-1', 'D-2'] },
      extra: { owner: copied.value.owner },
    });
  });

  it('a flow list over the node cap is refused on the fast path as the copy refused it', () => {
    const items = Array.from({ length: 20_001 }, (_, index) => `k${index}`).join(', ');
    const parsed = parseRecord(`---\nid: big\nkeywords: [${items}]\n---\nbody\n`);
    expect(parsed.unrepresentable).toBe('more than 20000 values');
    // One under the cap is still a record.
    const under = Array.from({ length: 19_990 }, (_, index) => `k${index}`).join(', ');
    expect(parseRecord(`---\nkeywords: [${under}]\n---\nbody\n`).unrepresentable).toBeUndefined();
  });

  it('the gloss is the first line with a non-blank character', () => {
    expect(glossOf('\n   \n\t\n##  Title   here \nnext')).toBe('Title here');
    expect(glossOf('only line')).toBe('only line');
    expect(glossOf('')).toBe('');
    expect(glossOf('\n \n')).toBe('');
    expect(glossOf('x\n')).toBe('x');
  });

  it('a file read whole: larger than any chunk, and one whose fstat size is 0 but has content', () => {
    const dir = tempDir();
    const big = `${'é'.repeat(70_000)}\nend`;
    writeFileSync(join(dir, 'big.md'), big);
    expect(readRegularFileSync(join(dir, 'big.md'))).toMatchObject({ text: big });
    // A /proc file is regular with size 0: the buffer sized by fstat must grow to the end.
    if (process.platform === 'linux') {
      const read = readRegularFileSync('/proc/self/mountinfo');
      expect('text' in read && read.stats.size).toBe(0);
      expect('text' in read && read.text.length).toBeGreaterThan(0);
      expect('text' in read && read.text).toBe(readFileSync('/proc/self/mountinfo', 'utf8'));
    }
  });

  it('the records reader reads what readFileSync reads, to the end, and never a link', () => {
    const dir = tempDir();
    // Past any one read, multi-byte, a byte-order mark, bytes that are not UTF-8.
    const big = `\uFEFF${'é'.repeat(70_000)}\nend`;
    writeFileSync(join(dir, 'big.md'), big);
    writeFileSync(join(dir, 'bad.md'), Buffer.from([0x2d, 0xff, 0xc3, 0x28, 0x0a]));
    for (const name of ['big.md', 'bad.md']) {
      const read = readRegularFile(join(dir, name));
      expect('content' in read && read.content).toBe(readFileSync(join(dir, name), 'utf8'));
      expect('content' in read && read.stats.isFile()).toBe(true);
    }
    symlinkSync(join(dir, 'big.md'), join(dir, 'link.md'));
    expect(readRegularFile(join(dir, 'link.md'))).toEqual({ notRegular: 'a symbolic link' });
    expect(readRegularFile(dir)).toEqual({ notRegular: 'a directory' });
    expect(() => readRegularFile(join(dir, 'none.md'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    // Regular with an fstat size of 0 but content: read to the end.
    if (process.platform === 'linux') {
      const read = readRegularFile('/proc/self/mountinfo');
      expect('content' in read && read.content.length).toBeGreaterThan(0);
    }
  });

  it('the gloss keeps its white-space rules on the short cut (one space, no copy) and off it', () => {
    expect(glossOf('a b c')).toBe('a b c');
    expect(glossOf('a  b\tc\u00a0d')).toBe('a b c d');
    expect(glossOf('a\tb\u00a0c\u2003d')).toBe('a b c d');
    expect(glossOf('### x  y')).toBe('x y');
    expect(glossOf('#tag only')).toBe('#tag only');
    expect(glossOf('####### seven')).toBe('####### seven');
  });

  it('a frontmatter block over the cap is refused whether or not a closing fence is found early', () => {
    const long = `id: a\nnote: ${'x'.repeat(FRONTMATTER_MAX_BYTES)}`;
    expect(parseRecord(`---\n${long}\n---\nbody\n`).unrepresentable).toMatch(/over the 256 KiB limit/);
    // Just within a third of the cap: parsed, never measured.
    const short = `id: a\nnote: ${'x'.repeat(FRONTMATTER_MAX_BYTES / 3 - 20)}`;
    expect(parseRecord(`---\n${short}\n---\nbody\n`).fields.id).toBe('a');
  });

  it('a full build makes the secondary indexes after its inserts, and a rebuild of an old index keeps them', () => {
    const root = corpus();
    const path = join(tempDir(), 'index.db');
    const names = () => {
      const db = openSqlite(path, { readonly: true });
      try {
        return (
          db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            .all() as {
            name: string;
          }[]
        ).map((row) => row.name);
      } finally {
        db.close();
      }
    };
    const wanted = ['links_path', 'links_target', 'records_id', 'records_kind'];
    const stores = listStores(root, {});
    IndexedRecords.open(root, stores, path).close();
    expect(names()).toEqual(wanted);
    // Another store set: nothing is kept, the tables are emptied and the indexes made again.
    const fewer = stores.filter((store) => store.store !== 'plans');
    const index = IndexedRecords.open(root, fewer, path);
    try {
      expect(names()).toEqual(wanted);
      expect(index.query({ kind: 'procedure' }).map((row) => row.path)).toHaveLength(3);
    } finally {
      index.close();
    }
  });
});

describe('an empty root', () => {
  it('is indexed and queried like any other: no records, exit 0, on every SQLite driver', async () => {
    // Its snapshot is two empty BLOBs, which Node 22's node:sqlite once bound as NULL.
    const root = tempDir('tally-records-empty-');
    const first = await tally(['records', 'query', '--root', root, '--kind', 'procedure', '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual([]);
    mkdirSync(join(root, 'references', 'procedures'), { recursive: true });
    writeFileSync(
      join(root, 'references', 'procedures', 'a.md'),
      '---\nid: P-a\nkind: procedure\n---\n# a\n',
    );
    const then = await tally(['records', 'query', '--root', root, '--kind', 'procedure', '--json']);
    expect(then.code, then.stderr).toBe(0);
    expect(JSON.parse(then.stdout).map((row: { id: string }) => row.id)).toEqual(['P-a']);
  });
});

describe('a build killed part-way', () => {
  it('never leaves an index that answers: the next query agrees with a scan', async () => {
    const root = join(tempDir('tally-records-'), 'root');
    const folder = join(root, 'references', 'procedures');
    mkdirSync(folder, { recursive: true });
    for (let index = 0; index < 4000; index++)
      writeFileSync(
        join(folder, `p${index}.md`),
        `---\nid: P-${index}\nkind: procedure\nkeywords: [step${index % 50}, rollback]\n---\n# Procedure ${index}\n`,
      );
    const env = { ...process.env, XDG_CACHE_HOME: CACHE, TALLY_RECORDS_RESIDENT: '0' };
    // Killed at a few points of the build (which point is luck; every point must be safe).
    for (const after of [100, 200, 400]) {
      const child = spawn(
        process.execPath,
        [TALLY_BIN, 'records', 'query', '--root', root, '--keyword', 'rollback'],
        {
          env,
          stdio: 'ignore',
        },
      );
      // Listened for at once: a build that ends before the kill must not be waited for forever.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, after));
      child.kill('SIGKILL');
      await exited;
      const indexed = await tally(['records', 'query', '--root', root, '--keyword', 'step7', '--json'], {
        env,
      });
      const scanned = await tally(
        ['records', 'query', '--root', root, '--keyword', 'step7', '--json', '--no-index'],
        {
          env,
        },
      );
      expect(indexed.code).toBe(0);
      expect(indexed.stdout).toBe(scanned.stdout);
      expect(JSON.parse(indexed.stdout)).toHaveLength(80);
    }
  }, 60_000);
});
