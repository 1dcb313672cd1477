// What each freshness check of the on-disk index sees (RecordsCheck): the CLI's --recall stats
// only the failure modes it ranks, --cat only the records it names, every other query every
// file. Each test edits files IN PLACE (same size, the directory mtime untouched), the case
// directory mtimes cannot see, and asserts both what a check sees and what it documents as missed.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IndexedRecords, type RecordsCheck } from '../../../src/packs/records/indexed-records.js';
import { type FailureLogMemo, recall } from '../../../src/packs/records/recall.js';
import { listStores } from '../../../src/packs/records/stores.js';
import { tempDir } from '../../helpers.js';
import { corpus, tally } from './records-fixture.js';

const FAILURE = 'references/failure-modes/migration-lock.md';
const SOLUTION = 'references/solutions/retry-idempotent-payments.md';

/** Rewrites `path` in place with `from` replaced by `to` (same length), mtime moved on 1.5 s. */
function editInPlace(root: string, path: string, from: string, to: string): void {
  expect(to).toHaveLength(from.length);
  const absolute = join(root, path);
  const before = statSync(absolute);
  const folder = statSync(join(absolute, '..')).mtimeMs;
  const text = readFileSync(absolute, 'utf8');
  expect(text).toContain(from);
  writeFileSync(absolute, text.replace(from, to));
  utimesSync(absolute, before.atime, new Date(before.mtimeMs + 1500));
  // In place: the folder's mtime, all a directory check looks at, did not move.
  expect(statSync(join(absolute, '..')).mtimeMs).toBe(folder);
}

function setup() {
  const root = corpus();
  const index = join(tempDir('tally-fresh-'), 'index.db');
  const open = (check: RecordsCheck) => IndexedRecords.open(root, listStores(root, {}), index, check);
  open('files').close();
  const ask = <T>(check: RecordsCheck, read: (source: IndexedRecords) => T): T => {
    const source = open(check);
    try {
      return read(source);
    } finally {
      source.close();
    }
  };
  const recallPaths = (check: RecordsCheck, terms: string) =>
    ask(check, (source) => source.recallCandidates(terms).map((candidate) => candidate.path));
  const keywordPaths = (check: RecordsCheck, keyword: string) =>
    ask(check, (source) => source.survey({ keyword }).map((row) => row.path));
  return { root, ask, recallPaths, keywordPaths };
}

describe('records freshness checks', () => {
  it('failure-modes (--recall) sees an in-place edit of a failure mode', () => {
    const { root, recallPaths } = setup();
    expect(recallPaths('failure-modes', 'zeppelin')).toEqual([]);
    editInPlace(root, FAILURE, 'outage', 'zeppo!');
    expect(recallPaths('failure-modes', 'zeppo')).toEqual([FAILURE]);
  });

  it('failure-modes does not stat other records; the next full check sees their edit', () => {
    const { root, recallPaths, keywordPaths } = setup();
    // A solution turned into a failure mode in place: the documented miss of --recall's check.
    const text = readFileSync(join(root, SOLUTION), 'utf8');
    writeFileSync(join(root, SOLUTION), text.replace('kind: solution', 'kind: failure-mode'));
    expect(recallPaths('failure-modes', 'idempotency')).toEqual([]);
    // Any full check (every other query) sees it, and --recall answers from it from then on.
    expect(keywordPaths('files', 'idempotency')).toEqual([SOLUTION]);
    expect(recallPaths('failure-modes', 'idempotency')).toEqual([SOLUTION]);
    // A failure mode by its indexed kind now: its next in-place edit is stat-ed by --recall too.
    editInPlace(root, SOLUTION, 'idempotency', 'zeppelinxyz');
    expect(recallPaths('failure-modes', 'zeppelinxyz')).toEqual([SOLUTION]);
  });

  it('every check sees an added record, in any store (its directory changed)', () => {
    const { root, recallPaths } = setup();
    writeFileSync(
      join(root, 'plans', 'new-failure.md'),
      '---\nid: FM-new\nkind: failure-mode\ndate: 2026-01-01\nstatus: active\nkeywords: [zeppelin]\nlinks: {}\n---\nA zeppelin failure\n',
    );
    expect(recallPaths('failure-modes', 'zeppelin')).toEqual(['plans/new-failure.md']);
  });

  it('{ paths } (--cat) stats only the named records; the others wait for a full check', () => {
    const { root, ask, keywordPaths } = setup();
    editInPlace(root, FAILURE, 'outage', 'zeppo!');
    editInPlace(root, SOLUTION, 'idempotency', 'zeppelinxyz');
    ask({ paths: [FAILURE] }, () => undefined);
    // The named record was re-read by the --cat check; the other was not, until `files`.
    expect(keywordPaths('dirs', 'zeppo')).toEqual([FAILURE]);
    expect(keywordPaths('dirs', 'zeppelinxyz')).toEqual([]);
    expect(keywordPaths('files', 'zeppelinxyz')).toEqual([SOLUTION]);
  });

  it('{ paths } (--cat) skips the other folders; the next full check still sees what they gained', () => {
    const { root, ask, keywordPaths } = setup();
    const added = 'references/decisions/use-zeppelins.md';
    writeFileSync(
      join(root, added),
      '---\nid: DEC-zeppelin\nkind: decision\nlinks: {}\nkeywords: [zeppelin]\n---\nZeppelins carry the freight.\n',
    );
    // --cat of a failure mode: the decisions folder is not above it, so it is not stat-ed...
    expect(ask({ paths: [FAILURE] }, (source) => [...source.pathsAmong([FAILURE, added])])).toEqual([
      FAILURE,
    ]);
    // ...and keeps its old times in the snapshot, so the next full check relists it.
    expect(keywordPaths('files', 'zeppelin')).toEqual([added]);
    // Named, the new record is found by --cat's own check (its folder is above it).
    writeFileSync(
      join(root, 'references/decisions/use-blimps.md'),
      '---\nid: DEC-blimp\nlinks: {}\n---\nBlimps.\n',
    );
    expect(
      ask({ paths: ['references/decisions/use-blimps.md'] }, (source) => [
        ...source.pathsAmong(['references/decisions/use-blimps.md']),
      ]),
    ).toEqual(['references/decisions/use-blimps.md']);
  });

  it('{ paths } (--cat) sees a new record at the root when the root itself is a store', () => {
    const root = corpus();
    const index = join(tempDir('tally-fresh-'), 'index.db');
    const stores = listStores(root, { TALLY_RECORDS_STORES: '.' });
    IndexedRecords.open(root, stores, index, 'files').close();
    writeFileSync(join(root, 'top.md'), '---\nid: TOP\nkind: decision\nlinks: {}\n---\nAt the root.\n');
    const source = IndexedRecords.open(root, stores, index, { paths: ['top.md'] });
    try {
      expect([...source.pathsAmong(['top.md'])]).toEqual(['top.md']);
    } finally {
      source.close();
    }
  });

  it('pathsAmong answers --cat membership: records only, not skipped, not unknown', () => {
    const { ask } = setup();
    expect(
      ask('dirs', (source) => [...source.pathsAmong([FAILURE, 'references/nope.md', 'plans/INDEX.md'])]),
    ).toEqual([FAILURE]);
  });

  it('recall in one long-lived process sees the failure log edited in place, same size', () => {
    const { root } = setup();
    // The memo the MCP server's recall tool keeps between calls.
    const memo: FailureLogMemo = {};
    const first = recall(root, [], 'race-condition', memo);
    expect(first.hits.map((hit) => hit.where)).toEqual(['mistakes.jsonl:4']);
    const log = join(root, 'mistakes.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replaceAll('race', 'zepo'));
    expect(recall(root, [], 'race-condition', memo).hits).toEqual([]);
    expect(recall(root, [], 'zepo', memo).hits.map((hit) => hit.where)).toEqual(['mistakes.jsonl:4']);
    // The malformed line is still reported on every call, not only the first parse.
    expect(recall(root, [], 'zepo', memo).malformedLineNumbers).toEqual([3]);
  });

  it('the CLI: --recall and --cat see an in-place edit of what they answer from', async () => {
    const { root } = setup();
    const q = (...args: string[]) => tally(['records', 'query', '--root', root, ...args]);
    expect((await q('--recall', 'zeppo')).stdout).toBe('recall: 0 matched\n');
    editInPlace(root, FAILURE, 'outage', 'zeppo!');
    expect((await q('--recall', 'zeppo')).stdout).toContain(`${FAILURE} — `);
    const cat = await q('--cat', FAILURE, `./${SOLUTION}`);
    expect(cat.code).toBe(0);
    expect(cat.stdout).toContain(`==> ${FAILURE} <==\n`);
    expect(cat.stdout).toContain('zeppo!');
    expect(cat.stdout).toContain(`==> ${SOLUTION} <==\n`);
    expect((await q('--cat', 'references/nope.md')).code).toBe(2);
  });
});
