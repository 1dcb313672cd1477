import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { SCHEMA_VERSION } from '../../../src/core/ledger/schema.js';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { tempDir } from '../../helpers.js';

/** A ledger made by Tally, then given runs with chosen times by hand (a run's own appends are stamped now). */
function ledgerWith(runs: { id: string; startedAt: string; entries: [string, string][] }[]): string {
  const path = join(tempDir(), '.tally', 'ledger.db');
  Ledger.open(path).close();
  const database = openSqlite(path);
  const insertRun = database.prepare("INSERT INTO runs VALUES (?, 'a', 'task', ?, '{}')");
  const insertEntry = database.prepare('INSERT INTO entries VALUES (?, ?, ?, ?, NULL, ?, ?)');
  database.transaction(() => {
    for (const run of runs) {
      insertRun.run(run.id, run.startedAt);
      for (const [index, [ts, kind]] of run.entries.entries())
        insertEntry.run(run.id, index + 1, ts, kind, kind === 'end' ? 'finished' : 'ok', '{"pad":"x"}');
    }
  })();
  database.close();
  return path;
}

const JAN = '2026-01-10T10:00:00.000Z';
const MAR = '2026-03-10T10:00:00.000Z';
const FEB = '2026-02-01T00:00:00.000Z';

function entryCount(path: string, runId: string): number {
  const database = openSqlite(path, { readonly: true });
  try {
    return database.prepare('SELECT COUNT(*) FROM entries WHERE run_id = ?').pluck().get(runId) as number;
  } finally {
    database.close();
  }
}

// Purge, check and the rest of the ledger's semantics run on both stores in
// ledger-backends.test.ts; here is what is about SQLite's file: its size after vacuum, its
// schema migrations, its journal modes and read-only opening in place.
describe('ledger retention: purge --before (SQLite file)', () => {
  const runs = [
    {
      id: 'run_old',
      startedAt: JAN,
      entries: [
        [JAN, 'tool_call'],
        [JAN, 'end'],
      ] as [string, string][],
    },
    // Started before the date, still writing after it: kept whole, its January entries too.
    {
      id: 'run_straddles',
      startedAt: JAN,
      entries: [
        [JAN, 'tool_call'],
        [MAR, 'end'],
      ] as [string, string][],
    },
    { id: 'run_new', startedAt: MAR, entries: [[MAR, 'tool_call']] as [string, string][] },
  ];

  it('vacuum gives the purged space back', () => {
    const big = Array.from({ length: 2000 }, (_, index): [string, string] => [
      JAN,
      index === 1999 ? 'end' : 'tool_call',
    ]);
    const path = ledgerWith([
      { id: 'run_big', startedAt: JAN, entries: big },
      runs[2] as (typeof runs)[number],
    ]);
    const ledger = Ledger.open(path);
    ledger.purge(FEB);
    const before = statSync(path).size;
    ledger.vacuum();
    ledger.close();
    expect(statSync(path).size).toBeLessThan(before / 2);
    expect(entryCount(path, 'run_new')).toBe(1);
  });
});

/** Byte 18 of the SQLite header: 2 while the file is in WAL mode, 1 for a rollback journal. */
function journalByte(path: string): number {
  const descriptor = openSync(path, 'r');
  const header = Buffer.alloc(20);
  readSync(descriptor, header, 0, 20, 0);
  closeSync(descriptor);
  return header[18] as number;
}

describe('schema versions and read-only opening', () => {
  /** A ledger as Tally 0.1 wrote it: schema 1, its one (kind, ts) index, left in WAL mode. */
  function versionOneLedger(): string {
    const path = join(tempDir(), 'ledger.db');
    const database = openSqlite(path);
    database.pragma('journal_mode = WAL');
    database.exec(`
      CREATE TABLE runs (id TEXT PRIMARY KEY, agent TEXT NOT NULL, task TEXT NOT NULL, started_at TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}') WITHOUT ROWID;
      CREATE TABLE entries (run_id TEXT NOT NULL, seq INTEGER NOT NULL, ts TEXT NOT NULL, kind TEXT NOT NULL,
        name TEXT, outcome TEXT, data TEXT NOT NULL, PRIMARY KEY (run_id, seq)) WITHOUT ROWID;
      CREATE INDEX entries_kind_ts ON entries (kind, ts);
      CREATE TRIGGER entries_append_only_update BEFORE UPDATE ON entries
        BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
      CREATE TRIGGER entries_append_only_delete BEFORE DELETE ON entries
        BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
      CREATE TRIGGER runs_append_only_update BEFORE UPDATE ON runs
        BEGIN SELECT RAISE(ABORT, 'ledger runs are append-only'); END;
      INSERT INTO runs VALUES ('run_1', 'fisherman', 'old task', '${MAR}', '{}');
      INSERT INTO entries VALUES ('run_1', 1, '${MAR}', 'tool_call', 'http', 'rejected', '{"error":{"code":"HTTP_4XX"}}');
      INSERT INTO entries VALUES ('run_1', 2, '${MAR}', 'guard', 'loop', 'nudge', '{}');
      INSERT INTO entries VALUES ('run_1', 3, '${MAR}', 'end', NULL, 'finished', '{"status":"success"}');
      PRAGMA user_version = 1;`);
    database.close();
    return path;
  }

  it('a schema-1 ledger still reads read-only (list and stats), without being changed', () => {
    const path = versionOneLedger();
    const before = statSync(path).mtimeMs;
    const ledger = Ledger.open(path, { readonly: true });
    expect(ledger.listRuns()).toMatchObject([
      { id: 'run_1', endingReason: 'finished', status: 'success', toolCalls: 1 },
    ]);
    const counts = ledger.counts('2026-01-01T00:00:00.000Z');
    expect(counts).toMatchObject({
      nudgedRuns: 1,
      finishedAfterNudge: 1,
      guardFires: { 'loop:nudge': 1 },
      rejectionsPerDay: { '2026-03-10': { HTTP_4XX: 1 } },
    });
    ledger.close();
    expect(statSync(path).mtimeMs).toBe(before);
    expect(readdirSync(dirname(path))).toEqual(['ledger.db']);
  });

  it('its next writer migrates it to the current schema: the new indexes, the old one gone, every entry kept', () => {
    const path = versionOneLedger();
    const ledger = Ledger.open(path);
    ledger.recorderFor('run_1').append({ kind: 'claim', outcome: 'verified', data: {} });
    expect(ledger.entries('run_1').map((entry) => [entry.seq, entry.kind])).toEqual([
      [1, 'tool_call'],
      [2, 'guard'],
      [3, 'end'],
      [4, 'claim'],
    ]);
    ledger.close();
    const raw = openSqlite(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const indexes = raw
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all();
    raw.close();
    expect(indexes).toEqual(['entries_kind_outcome_ts', 'entries_run_kind']);
  });

  it('a ledger from a newer Tally is not migrated backwards', () => {
    const path = versionOneLedger();
    const raw = openSqlite(path);
    raw.pragma('user_version = 99');
    raw.close();
    Ledger.open(path).close();
    const again = openSqlite(path, { readonly: true });
    expect(again.pragma('user_version', { simple: true })).toBe(99);
    again.close();
  });

  it('the last writer to close leaves a rollback journal: readers open the file in place and create nothing beside it', () => {
    const path = join(tempDir(), 'ledger.db');
    const first = Ledger.open(path);
    const second = Ledger.open(path);
    first.startRun({ agent: 'a', task: 't' });
    first.close();
    // Another writer is still connected: the file stays in WAL mode, its -wal shared.
    expect(journalByte(path)).toBe(2);
    expect(existsSync(`${path}-wal`)).toBe(true);
    second.close();
    expect(journalByte(path)).toBe(1);
    expect(readdirSync(dirname(path))).toEqual(['ledger.db']);
    const reader = Ledger.open(path, { readonly: true });
    expect(reader.listRuns()).toHaveLength(1);
    // A writer arriving while a reader reads: back to WAL, and the reader sees its run.
    const writer = Ledger.open(path);
    writer.startRun({ agent: 'b', task: 't' });
    writer.flush();
    expect(journalByte(path)).toBe(2);
    expect(reader.listRuns()).toHaveLength(2);
    writer.close();
    reader.close();
  });
});
