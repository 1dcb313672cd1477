// A long-lived records source (the MCP server, the scout tool, library users) keeps its index
// fresh by file-system events, not by a check of every file per call (issue 22). What a user
// notices: an edit, an add, a removal made on disk before a call is in that call's answer.
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import {
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { recordsIndexPath } from '../../../src/packs/records/records-index-path.js';
import { listStores } from '../../../src/packs/records/stores.js';
import {
  nextSweepMs,
  RECORDS_SWEEP_COST_SHARE,
  type SweepEvent,
  type WatchedRecordSource,
  type WatchRecordsOptions,
  watchRecordSource,
} from '../../../src/packs/records/watched-records.js';
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

/** An editor that rewrites PLAN in place (same inode, same directory mtime): the next call sees it. */
async function expectInPlaceEditSeen(root: string, source: WatchedRecordSource): Promise<void> {
  const file = join(root, PLAN);
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('keywords: [search, plan, q4]', 'keywords: [zanzibar]'),
  );
  await source.fresh();
  expect(keywordPaths(source, 'zanzibar')).toEqual([PLAN]);
}

describe('watchRecordSource', () => {
  it('watches (no per-call check) and sees an in-place edit at the next call', async () => {
    const root = corpus();
    const source = open(root);
    expect(source.mode).toBe('watch');
    expect(keywordPaths(source, 'zanzibar')).toEqual([]);
    await expectInPlaceEditSeen(root, source);
  });

  it('no watch to be had (the inotify limit): says what to do, and checks every call instead', async () => {
    const root = corpus();
    const fallbacks: string[] = [];
    const source = watchRecordSource(root, {
      env: { ...process.env, XDG_CACHE_HOME: tempDir('tally-cache-'), TALLY_RECORDS_STORES: '' },
      onFallback: (why) => fallbacks.push(why),
      watch: () => {
        throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
          code: 'ENOSPC',
        });
      },
    });
    opened.push(source);
    expect(source.mode).toBe('per-call');
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatch(
      /^records are re-checked on every call: ENOSPC setting a file-system watcher/,
    );
    expect(fallbacks[0]).toContain('sysctl fs.inotify.max_user_watches=');
    await expectInPlaceEditSeen(root, source);
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

  it('a sweep that costs more than 1/50 of its period runs less often, not back to back', async () => {
    // Without its worker the sweep is the full check on this thread. Each costs >= 40 ms and the
    // period is 20 ms: at a fixed period the sweeps would fill the thread (~25 in the 1.5 s
    // below); after the first, the next waits 50x its cost.
    const { fullChecks } = counted(corpus(), { sweepMs: 20, listMs: 40, startSweepWorker: noWorker });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(fullChecks()).toBeGreaterThanOrEqual(1);
    expect(fullChecks()).toBeLessThanOrEqual(2);
  });

  it("the worker's cost sets the period too: a detection that cost 1 s waits 50 s for the next", async () => {
    const events: SweepEvent[] = [];
    counted(corpus(), {
      sweepMs: 20,
      onSweep: (event) => events.push(event),
      startSweepWorker: () => fakeWorker({ paths: [], costMs: 1_000 }),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // At the 20 ms period ~50 sweeps would have run.
    expect(events).toEqual([{ phase: 'detect' }, { phase: 'delta', paths: 0 }]);
    expect(nextSweepMs(20, 1_000)).toBe(1_000 * RECORDS_SWEEP_COST_SHARE);
    expect(nextSweepMs(60_000, 100)).toBe(60_000);
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

/**
 * A source that counts its full checks: the full check (and only it) lists the stores again,
 * so `fullChecks()` not moving across an edit means the call looked at the event's paths only.
 */
function counted(
  root: string,
  options: { deltaMax?: number; sweepMs?: number; listMs?: number } & Pick<
    WatchRecordsOptions,
    'onSweep' | 'startSweepWorker' | 'watch'
  > = {},
) {
  const env = {
    ...process.env,
    XDG_CACHE_HOME: tempDir('tally-cache-'),
    TALLY_RECORDS_STORES: '',
  };
  let lists = 0;
  const fallbacks: string[] = [];
  const source = watchRecordSource(root, {
    env,
    onFallback: (why) => fallbacks.push(why),
    stores: () => {
      lists++;
      // A full check made to cost at least `listMs` (a big corpus, a loaded machine).
      const until = Date.now() + (options.listMs ?? 0);
      while (Date.now() < until);
      return listStores(root, env);
    },
    ...(options.deltaMax ? { deltaMax: options.deltaMax } : {}),
    ...(options.sweepMs ? { sweepMs: options.sweepMs } : {}),
    ...(options.onSweep ? { onSweep: options.onSweep } : {}),
    ...(options.startSweepWorker ? { startSweepWorker: options.startSweepWorker } : {}),
    ...(options.watch ? { watch: options.watch } : {}),
  });
  opened.push(source);
  expect(fallbacks).toEqual([]);
  expect(source.mode).toBe('watch');
  const start = lists;
  return { source, fullChecks: () => lists - start };
}

/** A sweep worker that cannot start: the sweep is the full check on the answering thread. */
const noWorker = (): Worker => {
  throw new Error('no threads here');
};

/** A stand-in for the sweep's worker that answers every request with `reply`. */
function fakeWorker(reply: unknown): Worker {
  const worker = new EventEmitter() as EventEmitter & Record<string, unknown>;
  worker.postMessage = () => setImmediate(() => worker.emit('message', reply));
  worker.unref = () => {};
  worker.terminate = async () => 0;
  return worker as unknown as Worker;
}

/** `fs.watch` on a file system that sends no events (a network mount, an overflowed queue). */
const deafWatch = (() => {
  const watcher = new EventEmitter() as EventEmitter & Record<string, unknown>;
  watcher.close = () => {};
  return watcher;
}) as unknown as typeof import('node:fs').watch;

/**
 * The sweeps' events, and a wait for the first sweep that began at or after an index of them
 * and finished (one sweep runs at a time, so the event after its `detect` is its result). Take
 * the index right before the edits, with no await between: a sweep begun after it saw them.
 */
function sweepLog() {
  const events: (SweepEvent | { phase: 'query' })[] = [];
  const settled = async (from: number) => {
    for (;;) {
      const begun = events.findIndex((event, at) => at >= from && event.phase === 'detect');
      const ended =
        begun === -1 ? -1 : events.findIndex((event, at) => at > begun && event.phase !== 'query');
      if (ended !== -1) return events[ended] as SweepEvent;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { events, onSweep: (event: SweepEvent) => events.push(event), settled };
}

const record = (id: string, keyword: string) =>
  `---\nid: ${id}\nkind: plan\ntitle: ${id}\nkeywords: [${keyword}]\n---\nBody.\n`;

describe('watchRecordSource: an edit re-checks the paths its events name, not every file', () => {
  it('an in-place edit with its size and mtime put back is seen, without a full check', async () => {
    const root = corpus();
    const { source, fullChecks } = counted(root);
    const file = join(root, PLAN);
    const before = statSync(file);
    const text = readFileSync(file, 'utf8');
    // Same size (q4 -> zz), then the old mtime put back: only the ctime and the event tell.
    writeFileSync(file, text.replace('keywords: [search, plan, q4]', 'keywords: [search, plan, zz]'));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    await source.fresh();
    expect(keywordPaths(source, 'zz')).toEqual([PLAN]);
    expect(source.rows().find((row) => row.path === PLAN)?.keywords).toEqual(['search', 'plan', 'zz']);
    expect(fullChecks()).toBe(0);
  });

  it('a new file, a rename within and across folders, and a deletion: each seen at the next call, no full check', async () => {
    const root = corpus();
    const { source, fullChecks } = counted(root);
    writeFileSync(join(root, 'plans/new.md'), record('PLAN-new', 'ibis'));
    await source.fresh();
    expect(keywordPaths(source, 'ibis')).toEqual(['plans/new.md']);

    renameSync(join(root, 'plans/new.md'), join(root, 'plans/renamed.md'));
    await source.fresh();
    expect(keywordPaths(source, 'ibis')).toEqual(['plans/renamed.md']);
    expect(source.paths().has('plans/new.md')).toBe(false);

    renameSync(join(root, 'plans/renamed.md'), join(root, 'references/decisions/moved.md'));
    await source.fresh();
    expect(source.query({ keyword: 'ibis' }).map((row) => [row.path, row.store])).toEqual([
      ['references/decisions/moved.md', 'references/decisions'],
    ]);

    rmSync(join(root, 'references/decisions/moved.md'));
    await source.fresh();
    expect(keywordPaths(source, 'ibis')).toEqual([]);
    expect(fullChecks()).toBe(0);
  });

  it('a new file in a new subfolder, then the subfolder removed: seen, and the folder is watched', async () => {
    const root = corpus();
    const { source, fullChecks } = counted(root);
    // Folder and file at once: the file is written before the folder's watcher can exist.
    mkdirSync(join(root, 'plans/later/deeper'), { recursive: true });
    writeFileSync(join(root, 'plans/later/deeper/a.md'), record('PLAN-a', 'okapi'));
    await source.fresh();
    expect(keywordPaths(source, 'okapi')).toEqual(['plans/later/deeper/a.md']);
    // The new folder's own watcher sees an edit in it.
    writeFileSync(join(root, 'plans/later/deeper/a.md'), record('PLAN-a', 'tapir'));
    await source.fresh();
    expect(keywordPaths(source, 'tapir')).toEqual(['plans/later/deeper/a.md']);
    expect(keywordPaths(source, 'okapi')).toEqual([]);

    rmSync(join(root, 'plans/later'), { recursive: true });
    await source.fresh();
    expect(keywordPaths(source, 'tapir')).toEqual([]);
    expect(source.paths().has('plans/later/deeper/a.md')).toBe(false);
    expect(fullChecks()).toBe(0);
  });

  it('an edit that makes a record invalid, and one that mends it', async () => {
    const root = corpus();
    const { source, fullChecks } = counted(root);
    const file = join(root, PLAN);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('keywords: [search, plan, q4]', 'keywords: [search, plan'));
    await source.fresh();
    expect(keywordPaths(source, 'q4')).toEqual([]);
    const broken = source.rows().find((row) => row.path === PLAN);
    expect(broken?.errors.join(' ')).toMatch(/not valid YAML/);
    writeFileSync(file, text);
    await source.fresh();
    expect(keywordPaths(source, 'q4')).toEqual([PLAN]);
    expect(source.rows().find((row) => row.path === PLAN)?.errors).toEqual([]);
    expect(fullChecks()).toBe(0);
  });

  it('a store folder created after start is seen (a full check: the root changed)', async () => {
    const root = corpus();
    rmSync(join(root, 'plans'), { recursive: true });
    const { source, fullChecks } = counted(root);
    mkdirSync(join(root, 'plans'));
    writeFileSync(join(root, 'plans/n.md'), record('N-1', 'numbat'));
    await source.fresh();
    expect(keywordPaths(source, 'numbat')).toEqual(['plans/n.md']);
    expect(fullChecks()).toBeGreaterThan(0);
    // A file next to the stores changes no record: no full check for it.
    const checks = fullChecks();
    await source.fresh();
    writeFileSync(join(root, 'mistakes.jsonl'), '{}\n');
    writeFileSync(join(root, 'plans/m.md'), record('N-2', 'quoll'));
    await source.fresh();
    expect(keywordPaths(source, 'quoll')).toEqual(['plans/m.md']);
    expect(fullChecks()).toBe(checks);
  });

  it('a record replaced by a symlink or a FIFO drops out, as from the full listing (the FIFO is never opened)', async () => {
    const root = corpus();
    const { source, fullChecks } = counted(root);
    writeFileSync(join(root, 'plans/target.md'), record('PLAN-target', 'gecko'));
    writeFileSync(join(root, 'plans/fifo.md'), record('PLAN-fifo', 'gecko'));
    await source.fresh();
    expect(keywordPaths(source, 'gecko').sort()).toEqual(['plans/fifo.md', 'plans/target.md']);
    rmSync(join(root, PLAN));
    symlinkSync(join(root, 'plans/target.md'), join(root, PLAN));
    rmSync(join(root, 'plans/fifo.md'));
    execFileSync('mkfifo', [join(root, 'plans/fifo.md')]);
    await source.fresh();
    expect(keywordPaths(source, 'gecko')).toEqual(['plans/target.md']);
    expect(source.paths().has(PLAN)).toBe(false);
    expect(fullChecks()).toBe(0);
  });

  it('more edits at once than deltaMax: the full check runs, and sees every one', async () => {
    const root = corpus();
    const { source, fullChecks } = counted(root, { deltaMax: 3 });
    for (let index = 0; index < 6; index++)
      writeFileSync(join(root, `plans/bulk-${index}.md`), record(`PLAN-bulk-${index}`, 'lemur'));
    await source.fresh();
    expect(keywordPaths(source, 'lemur')).toHaveLength(6);
    expect(fullChecks()).toBeGreaterThan(0);
  });
});

describe('watchRecordSource: the sweep detects off the answering thread, and that thread applies', () => {
  it('edits no event reported (in place with size and mtime put back, added, removed, a new folder, a link, a FIFO, an invalid record) are seen after a sweep, without a full check', async () => {
    const root = corpus();
    const log = sweepLog();
    const { source, fullChecks } = counted(root, { sweepMs: 50, watch: deafWatch, onSweep: log.onSweep });
    // Taken before the edits (no turn of the event loop in between): a sweep begun after it saw them.
    const edited = log.events.length;
    const file = join(root, PLAN);
    const before = statSync(file);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('keywords: [search, plan, q4]', 'keywords: [search, plan, zz]'));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    writeFileSync(join(root, 'plans/new.md'), record('PLAN-new', 'ibis'));
    mkdirSync(join(root, 'plans/later/deeper'), { recursive: true });
    writeFileSync(join(root, 'plans/later/deeper/a.md'), record('PLAN-a', 'okapi'));
    rmSync(join(root, 'references/principles/small-steps.md'));
    const decision = 'references/decisions/use-postgres.md';
    rmSync(join(root, decision));
    symlinkSync(join(root, 'plans/new.md'), join(root, decision));
    const fifo = 'references/decisions/semantic-versioning.md';
    rmSync(join(root, fifo));
    execFileSync('mkfifo', [join(root, fifo)]);
    const failure = 'references/failure-modes/migration-lock.md';
    writeFileSync(join(root, failure), '---\nid: [unclosed\n---\nBody.\n');
    // No event was delivered: the index still answers as before the edits.
    await source.fresh();
    expect(keywordPaths(source, 'ibis')).toEqual([]);

    expect(await log.settled(edited)).toEqual({ phase: 'delta', paths: 7 });
    expect(keywordPaths(source, 'zz')).toEqual([PLAN]);
    expect(keywordPaths(source, 'ibis')).toEqual(['plans/new.md']);
    expect(keywordPaths(source, 'okapi')).toEqual(['plans/later/deeper/a.md']);
    const paths = source.paths();
    for (const gone of ['references/principles/small-steps.md', decision, fifo])
      expect(paths.has(gone)).toBe(false);
    expect(
      source
        .rows()
        .find((row) => row.path === failure)
        ?.errors.join(' '),
    ).toMatch(/YAML/);
    expect(fullChecks()).toBe(0);

    // What it saw is kept: the next sweep names nothing, and a later edit only that file.
    expect(await log.settled(log.events.length)).toEqual({ phase: 'delta', paths: 0 });
    const later = log.events.length;
    writeFileSync(join(root, 'plans/later/deeper/a.md'), record('PLAN-a', 'tapir'));
    expect(await log.settled(later)).toEqual({ phase: 'delta', paths: 1 });
    expect(keywordPaths(source, 'tapir')).toEqual(['plans/later/deeper/a.md']);
    expect(fullChecks()).toBe(0);
  });

  it('a folder removed without an event: its records go, without a full check', async () => {
    const root = corpus();
    const log = sweepLog();
    mkdirSync(join(root, 'plans/old'));
    writeFileSync(join(root, 'plans/old/o.md'), record('PLAN-o', 'dodo'));
    const { source, fullChecks } = counted(root, { sweepMs: 50, watch: deafWatch, onSweep: log.onSweep });
    expect(keywordPaths(source, 'dodo')).toEqual(['plans/old/o.md']);
    const removed = log.events.length;
    rmSync(join(root, 'plans/old'), { recursive: true });
    expect(await log.settled(removed)).toEqual({ phase: 'delta', paths: 1 });
    expect(keywordPaths(source, 'dodo')).toEqual([]);
    expect(fullChecks()).toBe(0);
  });

  it('the answering thread answers queries while the worker sweeps', async () => {
    const root = corpus();
    const log = sweepLog();
    const { source } = counted(root, {
      sweepMs: 50,
      onSweep: (event) => {
        log.onSweep(event);
        if (event.phase !== 'detect') return;
        // From the sweep's start, a query at every turn of the event loop until it ends.
        const ask = () => {
          if (log.events.at(-1)?.phase === 'delta') return;
          expect(keywordPaths(source, 'q4')).toEqual([PLAN]);
          log.events.push({ phase: 'query' });
          setImmediate(ask);
        };
        setImmediate(ask);
      },
    });
    await log.settled(0);
    const phases = log.events.map((event) => event.phase);
    expect(phases[0]).toBe('detect');
    expect(phases[1]).toBe('query');
    expect(phases.indexOf('delta')).toBeGreaterThan(1);
  });

  it('a burst beyond deltaMax: the worker says so and the full check runs', async () => {
    const root = corpus();
    const log = sweepLog();
    const { source, fullChecks } = counted(root, {
      deltaMax: 3,
      sweepMs: 50,
      watch: deafWatch,
      onSweep: log.onSweep,
    });
    const written = log.events.length;
    for (let index = 0; index < 6; index++)
      writeFileSync(join(root, `plans/bulk-${index}.md`), record(`PLAN-bulk-${index}`, 'lemur'));
    expect(await log.settled(written)).toEqual({ phase: 'full', why: 'more than 3 paths changed' });
    expect(fullChecks()).toBe(1);
    expect(keywordPaths(source, 'lemur')).toHaveLength(6);
  });

  it('a worker that ended between sweeps is replaced at the next sweep, not waited for', async () => {
    const events: SweepEvent[] = [];
    let starts = 0;
    counted(corpus(), {
      sweepMs: 300,
      onSweep: (event) => events.push(event),
      // Answers one sweep with nothing changed, then ends.
      startSweepWorker: () => {
        starts++;
        return new Worker(
          `const { parentPort } = require('node:worker_threads');
           parentPort.once('message', () => { parentPort.postMessage({ paths: [], costMs: 0 }); setTimeout(() => process.exit(0), 20); });`,
          { eval: true },
        );
      },
    });
    while (events.filter((event) => event.phase === 'delta').length < 2)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(starts).toBeGreaterThanOrEqual(2);
    expect(events.some((event) => event.phase === 'full')).toBe(false);
  });

  it('a worker that fails, or cannot start: the sweep runs the full check instead, and sees the edit', async () => {
    for (const startSweepWorker of [() => new Worker('throw new Error("boom")', { eval: true }), noWorker]) {
      const root = corpus();
      const events: SweepEvent[] = [];
      const { source, fullChecks } = counted(root, {
        sweepMs: 50,
        watch: deafWatch,
        onSweep: (event) => events.push(event),
        startSweepWorker,
      });
      writeFileSync(join(root, 'plans/new.md'), record('PLAN-new', 'ibis'));
      while (!events.some((event) => event.phase === 'full'))
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(events.find((event) => event.phase === 'full')).toMatchObject({
        why: expect.stringMatching(/sweep's worker (failed .*boom|could not start .*no threads)/),
      });
      expect(fullChecks()).toBeGreaterThanOrEqual(1);
      expect(keywordPaths(source, 'ibis')).toEqual(['plans/new.md']);
    }
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

describe('watchRecordSource: --recall keeps the failure-mode texts between calls', () => {
  const FAILURE = 'references/failure-modes/migration-lock.md';
  const recallPaths = (source: WatchedRecordSource, terms: string) =>
    source.recallCandidates(terms).map((candidate) => candidate.path);

  it('a second call at the same state keeps them; an edit is seen at the next call all the same', async () => {
    const root = corpus();
    const source = open(root);
    const first = source.recallCandidates('outage');
    expect(first.map((candidate) => candidate.path)).toContain(FAILURE);
    // The second call reads every text once; later calls pick their rows from those.
    const second = source.recallCandidates('outage');
    expect(second).toEqual(first);
    expect(source.recallCandidates('outage')[0]).toBe(second[0]);
    // The kept rows are exactly those the query picks (same rows, same order), for other terms too.
    expect(recallPaths(source, 'migration lock')).toEqual(recallPaths(open(root), 'migration lock'));
    const file = join(root, FAILURE);
    writeFileSync(file, readFileSync(file, 'utf8').replace('outage', 'zeppo!'));
    await source.fresh();
    expect(recallPaths(source, 'zeppo')).toEqual([FAILURE]);
    expect(recallPaths(source, 'zeppo')).toEqual([FAILURE]);
    expect(recallPaths(source, 'zeppo')).toEqual([FAILURE]);
  });

  it('a commit by another connection to the same index is seen by the next call', async () => {
    const root = corpus();
    const env = { ...process.env, XDG_CACHE_HOME: tempDir('tally-cache-'), TALLY_RECORDS_STORES: '' };
    const source = watchRecordSource(root, { env });
    opened.push(source);
    for (let call = 0; call < 3; call++) expect(recallPaths(source, 'quokka')).toEqual([]);
    // Another process (a one-shot query) writing the index: the kept texts must not hide it.
    const other = openSqlite(recordsIndexPath(root, env).path);
    try {
      other.prepare('UPDATE recall_fts SET text = ? WHERE path = ?').run('quokka', FAILURE);
    } finally {
      other.close();
    }
    // The text recall scores is the new one, not a kept copy.
    for (let call = 0; call < 2; call++)
      expect(source.recallCandidates('quokka').map(({ path, text }) => ({ path, text }))).toEqual([
        { path: FAILURE, text: 'quokka' },
      ]);
  });
});
