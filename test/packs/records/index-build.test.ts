import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFileSync } from '../../../src/core/io/read-regular-file.js';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { fastFrontmatter } from '../../../src/packs/records/fast-frontmatter.js';
import { glossOf } from '../../../src/packs/records/gloss.js';
import { IndexedRecords } from '../../../src/packs/records/indexed-records.js';
import { parseRecord } from '../../../src/packs/records/parse-record.js';
import { plainFrontmatter } from '../../../src/packs/records/plain-frontmatter.js';
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
