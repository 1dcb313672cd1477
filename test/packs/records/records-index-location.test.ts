import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathKey } from '../../../src/packs/records/path-key.js';
import { recordsIndexPath } from '../../../src/packs/records/records-index-path.js';
import { tempDir } from '../../helpers.js';
import { CACHE, corpus, tally } from './records-fixture.js';

const q = (root: string, ...args: string[]) => tally(['records', 'query', '--root', root, ...args]);

/** Every entry under `dir`: path, type, mode, size, mtime and a content hash. */
function listing(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      const stats = lstatSync(path);
      const line = `${prefix}${entry.name} ${stats.mode} ${stats.size} ${stats.mtimeMs}`;
      if (entry.isDirectory()) return [line, ...listing(path, `${prefix}${entry.name}/`)];
      const hash = entry.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : '';
      return [`${line} ${hash}`];
    });
}

const indexDirs = () => readdirSync(join(CACHE, 'tally', 'records'));

describe('where the records index lives (issue 12)', () => {
  it('a query writes nothing into the records folder: byte-for-byte and listing-for-listing unchanged', async () => {
    const root = corpus();
    const before = listing(root);
    const beforeRoot = statSync(root).mtimeMs;
    for (const args of [
      ['--keyword', 'migration lock'],
      ['--kind', 'procedure', '--full'],
      ['--recall', 'race-condition'],
      ['--cat', 'plans/q4-search.md'],
      ['--list-stores'],
      ['--id', 'DEC-postgres', '--json'],
    ]) {
      const run = await q(root, ...args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stderr, args.join(' ')).not.toMatch(/no on-disk index/);
    }
    expect((await tally(['records', 'lint', '--root', root])).code).toBeLessThan(2);
    expect(listing(root)).toEqual(before);
    expect(statSync(root).mtimeMs).toBe(beforeRoot);
    expect(existsSync(join(root, '.tally'))).toBe(false);
  });

  it('lives in $XDG_CACHE_HOME/tally/records/<key of the real root>/index-v10.db, folders 0700', async () => {
    const root = corpus();
    expect((await q(root, '--kind', 'procedure')).code).toBe(0);
    const key = pathKey(realpathSync(root));
    const file = join(CACHE, 'tally', 'records', key, 'index-v10.db');
    expect(existsSync(file)).toBe(true);
    for (const dir of [
      join(CACHE, 'tally'),
      join(CACHE, 'tally', 'records'),
      join(CACHE, 'tally', 'records', key),
    ])
      expect(statSync(dir).mode & 0o777, dir).toBe(0o700);
    // Without XDG_CACHE_HOME: ~/.cache.
    expect(recordsIndexPath(root, { HOME: '/home/someone' }).path).toBe(
      join('/home/someone', '.cache', 'tally', 'records', key, 'index-v10.db'),
    );
  });

  it("an upgrade deletes the older layouts' indexes of that root, never a newer one or a file the user named", async () => {
    const root = corpus();
    const key = pathKey(realpathSync(root));
    const folder = join(CACHE, 'tally', 'records', key);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stale = ['index-v7.db', 'index-v9.db', 'index-v9.db-journal', 'index-v9.db-wal'];
    const kept = ['index-v11.db', 'index-v8.db.bak', 'notes.txt'];
    for (const name of [...stale, ...kept]) writeFileSync(join(folder, name), 'old cache '.repeat(50));
    expect((await q(root, '--kind', 'procedure')).code).toBe(0);
    expect(readdirSync(folder).sort()).toEqual([...kept, 'index-v10.db'].sort());
    // A path given with --index: the files beside it are the user's.
    const own = tempDir();
    writeFileSync(join(own, 'index-v8.db'), 'mine');
    expect((await q(root, '--kind', 'procedure', '--index', join(own, 'index-v10.db'))).code).toBe(0);
    expect(readFileSync(join(own, 'index-v8.db'), 'utf8')).toBe('mine');
  });

  it('two roots never share an index; the same root through a link does', async () => {
    const first = corpus();
    const second = corpus();
    writeFileSync(
      join(second, 'plans', 'only-here.md'),
      '---\nid: P-only\nkind: plan\ndate: 2026-01-01\nstatus: active\nkeywords: [walrus]\nlinks: {}\n---\nOnly in the second root\n',
    );
    const before = new Set(indexDirs());
    expect((await q(first, '--keyword', 'walrus')).stdout).toBe('');
    expect((await q(second, '--keyword', 'walrus')).stdout).toBe(
      'plans/only-here.md — Only in the second root\n',
    );
    expect((await q(first, '--keyword', 'walrus')).stdout).toBe('');
    const created = indexDirs().filter((dir) => !before.has(dir));
    expect(created).toHaveLength(2);
    const link = join(tempDir(), 'link');
    symlinkSync(second, link);
    expect((await q(link, '--keyword', 'walrus')).stdout).toBe(
      'plans/only-here.md — Only in the second root\n',
    );
    expect(indexDirs().filter((dir) => !before.has(dir))).toHaveLength(2);
  });

  it('--index PATH and TALLY_RECORDS_INDEX put the index where they say', async () => {
    const root = corpus();
    const dir = tempDir('tally-index-');
    const flagged = join(dir, 'flag.db');
    expect((await q(root, '--keyword', 'postgres', '--index', flagged)).code).toBe(0);
    expect(existsSync(flagged)).toBe(true);
    const fromEnv = join(dir, 'env.db');
    const run = await tally(['records', 'query', '--root', root, '--kind', 'plan'], {
      env: { TALLY_RECORDS_INDEX: fromEnv },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(fromEnv)).toBe(true);
    expect(existsSync(join(root, '.tally'))).toBe(false);
  });

  it('a symlinked cache folder is never written through: the query scans instead, and says so', async () => {
    const root = corpus();
    const cache = tempDir('tally-cache-');
    const victim = tempDir('tally-victim-');
    mkdirSync(join(cache, 'tally'));
    symlinkSync(victim, join(cache, 'tally', 'records'));
    const run = await tally(['records', 'query', '--root', root, '--keyword', 'postgres'], {
      env: { XDG_CACHE_HOME: cache },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('references/decisions/use-postgres.md');
    expect(run.stderr).toMatch(/no on-disk index .*symbolic link/);
    expect(readdirSync(victim)).toEqual([]);
  });

  it('sees an in-place edit and an append with unchanged folders (the default per-file check)', async () => {
    const root = corpus();
    const path = join(root, 'plans', 'q4-search.md');
    expect((await q(root, '--keyword', 'narwhal')).stdout).toBe('');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/keywords: \[/, 'keywords: [narwhal, '));
    expect((await q(root, '--keyword', 'narwhal')).stdout).toMatch(/^plans\/q4-search\.md — /);
    appendFileSync(path, '\n');
    expect((await q(root, '--keyword', 'narwhal')).stdout).toMatch(/^plans\/q4-search\.md — /);
  });
});

describe('the index key of a root', () => {
  it('is 32 hex digits, the same for the same path, and differs across 20,000 near-identical paths', () => {
    expect(pathKey('/home/a/records')).toMatch(/^[0-9a-f]{32}$/);
    expect(pathKey('/home/a/records')).toBe(pathKey('/home/a/records'));
    const keys = new Set<string>();
    for (let index = 0; index < 10_000; index++) {
      keys.add(pathKey(`/home/user/records-${index}`));
      keys.add(pathKey(`/home/user/récords/${index}`));
    }
    expect(keys.size).toBe(20_000);
  });
});

describe('a damaged index', () => {
  it('a damaged cache index is rebuilt; a non-index file named by --index is never deleted', async () => {
    const root = corpus();
    expect((await q(root, '--kind', 'plan')).code).toBe(0);
    const key = pathKey(realpathSync(root));
    writeFileSync(join(CACHE, 'tally', 'records', key, 'index-v10.db'), 'not a database at all '.repeat(400));
    const rebuilt = await q(root, '--keyword', 'postgres');
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toContain('references/decisions/use-postgres.md');
    expect(rebuilt.stderr).toBe('');
    const precious = join(tempDir(), 'notes.txt');
    writeFileSync(precious, 'my notes, not an index '.repeat(400));
    const scanned = await q(root, '--keyword', 'postgres', '--index', precious);
    expect(scanned.code, scanned.stderr).toBe(0);
    expect(scanned.stdout).toContain('references/decisions/use-postgres.md');
    expect(scanned.stderr).toMatch(/no on-disk index/);
    expect(readFileSync(precious, 'utf8')).toBe('my notes, not an index '.repeat(400));
  });
});

describe('--recall keeps both sources visible', () => {
  it('interleaves failure-mode records and log lines, each best first', async () => {
    const root = corpus();
    for (let index = 0; index < 30; index++)
      writeFileSync(
        join(root, 'references', 'failure-modes', `quota-${index}.md`),
        `---\nid: FM-q${index}\nkind: failure-mode\ndate: 2026-01-01\nstatus: active\nkeywords: [quota, breach]\nlinks: {}\n---\nQuota breach number ${index}\n`,
      );
    appendFileSync(
      join(root, 'mistakes.jsonl'),
      `${JSON.stringify({ category: 'limits', description: 'A quota was hit', correction: 'Ask first' })}\n`,
    );
    const run = await q(root, '--recall', 'quota breach');
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('recall: 31 matched');
    const shown = lines.slice(1, 11);
    expect(shown[0]).toMatch(/^references\/failure-modes\/quota-0\.md — /);
    expect(shown[1]).toMatch(/^mistakes\.jsonl:\d+ — \[limits\] A quota was hit → Ask first$/);
    expect(lines.at(-1)).toBe('(showing 10 of 31; add terms or raise --limit)');
  });
});
