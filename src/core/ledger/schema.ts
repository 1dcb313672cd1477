import type { SqliteDatabase } from '../sqlite/sqlite-database.js';

/**
 * Each migration takes a ledger from the version before it to its own; `user_version` holds the
 * version a ledger is at. Old ledgers still open read-only (the queries work without the newer
 * indexes, only slower) and are migrated by their next writer.
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  // 1: the tables; append-only is enforced by the database itself, not by convention.
  [
    `CREATE TABLE IF NOT EXISTS runs (
       id TEXT PRIMARY KEY,
       agent TEXT NOT NULL,
       task TEXT NOT NULL,
       started_at TEXT NOT NULL,
       meta TEXT NOT NULL DEFAULT '{}'
     ) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS entries (
       run_id TEXT NOT NULL,
       seq INTEGER NOT NULL,
       ts TEXT NOT NULL,
       kind TEXT NOT NULL,
       name TEXT,
       outcome TEXT,
       data TEXT NOT NULL,
       PRIMARY KEY (run_id, seq)
     ) WITHOUT ROWID`,
    'CREATE INDEX IF NOT EXISTS entries_kind_ts ON entries (kind, ts)',
    `CREATE TRIGGER IF NOT EXISTS entries_append_only_update BEFORE UPDATE ON entries
       BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END`,
    `CREATE TRIGGER IF NOT EXISTS entries_append_only_delete BEFORE DELETE ON entries
       BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END`,
    `CREATE TRIGGER IF NOT EXISTS runs_append_only_update BEFORE UPDATE ON runs
       BEGIN SELECT RAISE(ABORT, 'ledger runs are append-only'); END`,
  ],
  // 2: indexes that answer what the run list and `tally stats` show without scanning entries.
  // (run_id, kind): a run's tool-call count and its end entry; (kind, outcome, ts, name): the
  // stats' counts by kind and outcome since a time, read from the index alone. The second
  // replaces (kind, ts), so an append still updates two b-trees besides the table.
  [
    'CREATE INDEX IF NOT EXISTS entries_run_kind ON entries (run_id, kind)',
    'CREATE INDEX IF NOT EXISTS entries_kind_outcome_ts ON entries (kind, outcome, ts, name)',
    'DROP INDEX IF EXISTS entries_kind_ts',
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The triggers that keep entries append-only; `tally ledger purge` lifts them inside its transaction. */
export const APPEND_ONLY_DELETE_TRIGGER = (MIGRATIONS[0] as readonly string[])[4] as string;

/** Brings a writable ledger to SCHEMA_VERSION: the migrations it lacks, in order, in one transaction. */
export function applySchema(database: SqliteDatabase): void {
  // An up-to-date ledger needs no write lock to open: another process may be holding it.
  if (database.pragma('user_version', { simple: true }) === SCHEMA_VERSION) return;
  database
    .transaction(() => {
      // Read again under the write lock: another process may have migrated it meanwhile.
      const at = database.pragma('user_version', { simple: true }) as number;
      if (at > SCHEMA_VERSION) return; // written by a newer Tally: leave it as it is
      for (const statement of MIGRATIONS.slice(at).flat()) database.exec(statement);
      database.pragma(`user_version = ${SCHEMA_VERSION}`);
    })
    .immediate();
}
