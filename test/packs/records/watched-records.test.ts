// A long-lived records source (the MCP server, the scout tool, library users) keeps its index
// fresh by file-system events, not by a check of every file per call (issue 22). What a user
// notices: an edit, an add, a removal made on disk before a call is in that call's answer.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type WatchedRecordSource, watchRecordSource } from '../../../src/packs/records/watched-records.js';
import { tempDir } from '../../helpers.js';
import { corpus } from './records-fixture.js';

const PLAN = 'plans/q4-search.md';
const opened: WatchedRecordSource[] = [];
afterEach(() => {
  for (const source of opened.splice(0)) source.close();
});

function open(root: string, sweepMs?: number): WatchedRecordSource {
  const fallbacks: string[] = [];
  const source = watchRecordSource(root, {
    env: { ...process.env, XDG_CACHE_HOME: tempDir('tally-cache-'), TALLY_RECORDS_STORES: '' },
    onFallback: (why) => fallbacks.push(why),
    ...(sweepMs ? { sweepMs } : {}),
  });
  opened.push(source);
  expect(fallbacks).toEqual([]);
  return source;
}

const keywordPaths = (source: WatchedRecordSource, keyword: string) =>
  source.query({ keyword }).map((row) => row.path);

describe('watchRecordSource', () => {
  it('watches (no per-call check) and sees an in-place edit at the next call', async () => {
    const root = corpus();
    const source = open(root);
    expect(source.mode).toBe('watch');
    expect(keywordPaths(source, 'zanzibar')).toEqual([]);
    // An editor that rewrites the file in place: same inode, same directory mtime.
    const file = join(root, PLAN);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('keywords: [search, plan, q4]', 'keywords: [zanzibar]'),
    );
    await source.fresh();
    expect(keywordPaths(source, 'zanzibar')).toEqual([PLAN]);
  });

  it('sees a record added, one saved atomically, and one removed, each at the next call', async () => {
    const root = corpus();
    const source = open(root);
    const added = 'plans/added.md';
    writeFileSync(
      join(root, added),
      '---\nid: PLAN-added\nkind: plan\ntitle: Added\nkeywords: [quokka]\n---\nBody.\n',
    );
    await source.fresh();
    expect(keywordPaths(source, 'quokka')).toEqual([added]);
    expect(source.paths().has(added)).toBe(true);

    // Temp file + rename, as most editors save.
    const temp = join(root, 'plans', '.added.md.tmp');
    writeFileSync(temp, '---\nid: PLAN-added\nkind: plan\ntitle: Added\nkeywords: [wombat]\n---\nBody.\n');
    renameSync(temp, join(root, added));
    await source.fresh();
    expect(keywordPaths(source, 'quokka')).toEqual([]);
    expect(keywordPaths(source, 'wombat')).toEqual([added]);

    rmSync(join(root, added));
    await source.fresh();
    expect(keywordPaths(source, 'wombat')).toEqual([]);
    expect(source.paths().has(added)).toBe(false);
  });

  it('sees records in a folder created after it started (the new folder is watched too)', async () => {
    const root = corpus();
    const source = open(root);
    const dir = join(root, 'plans', 'later');
    mkdirSync(dir);
    await source.fresh();
    writeFileSync(
      join(dir, 'deep.md'),
      '---\nid: PLAN-deep\nkind: plan\ntitle: Deep\nkeywords: [axolotl]\n---\n',
    );
    await source.fresh();
    expect(keywordPaths(source, 'axolotl')).toEqual(['plans/later/deep.md']);
    // And an edit inside it, in place.
    writeFileSync(
      join(dir, 'deep.md'),
      '---\nid: PLAN-deep\nkind: plan\ntitle: Deep\nkeywords: [capybara]\n---\n',
    );
    await source.fresh();
    expect(keywordPaths(source, 'capybara')).toEqual(['plans/later/deep.md']);
  });

  it('the sweep catches up without a call asking for freshness', async () => {
    const root = corpus();
    const source = open(root, 50);
    const file = join(root, PLAN);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('keywords: [search, plan, q4]', 'keywords: [pangolin]'),
    );
    // A plain (synchronous) query after the sweep's period: the sweep has re-checked.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(keywordPaths(source, 'pangolin')).toEqual([PLAN]);
  });

  it('pathsAmong: only the named paths a query can return, a record added on disk included', async () => {
    const root = corpus();
    const source = open(root);
    expect(source.pathsAmong?.([PLAN, 'plans/nope.md', 'README.md'])).toEqual(new Set([PLAN]));
    writeFileSync(join(root, 'plans/late.md'), '---\nid: PLAN-late\nkind: plan\ntitle: Late\n---\nBody.\n');
    await source.fresh();
    expect(source.pathsAmong?.(['plans/late.md', PLAN])).toEqual(new Set(['plans/late.md', PLAN]));
    rmSync(join(root, PLAN));
    await source.fresh();
    expect(source.pathsAmong?.([PLAN])).toEqual(new Set());
  });

  it('a closed source refuses queries instead of answering from a stale index', async () => {
    const source = open(corpus());
    source.close();
    expect(() => source.query({ kind: 'plan' })).toThrow(/closed/);
    await expect(source.fresh()).rejects.toThrow(/closed/);
  });
});

describe('--project in SQL (the index) agrees with projectMatches (the scan)', () => {
  it('for exact names, repo parts on either side, wildcards and empty values', async () => {
    const { IndexedRecords } = await import('../../../src/packs/records/indexed-records.js');
    const { listStores } = await import('../../../src/packs/records/stores.js');
    const { projectMatches } = await import('../../../src/packs/records/record-query.js');
    const root = corpus();
    const projects = [
      'acme/shop',
      'shop',
      'other/shop',
      'acme/shopping',
      '%',
      'a_b',
      'x/a_b',
      '/shop',
      'acme/',
      '',
    ];
    for (const [index, project] of projects.entries())
      writeFileSync(
        join(root, 'plans', `p${index}.md`),
        `---\nid: P-${index}\nkind: plan\ntitle: P ${index}\nproject: "${project}"\n---\nBody.\n`,
      );
    const index = IndexedRecords.open(
      root,
      listStores(root, { TALLY_RECORDS_STORES: '' }),
      join(tempDir(), 'i.db'),
    );
    try {
      const all = index.rows();
      for (const wanted of [...projects.filter(Boolean), 'acme/shop/x', 'b', 'SHOP']) {
        const expected = all.filter((row) => projectMatches(row.project, wanted)).map((row) => row.path);
        expect(
          index.query({ project: wanted }).map((row) => row.path),
          wanted,
        ).toEqual(expected);
        expect(index.query({ project: wanted, limit: 1 }).map((row) => row.path)).toEqual(
          expected.slice(0, 1),
        );
      }
    } finally {
      index.close();
    }
  });
});
