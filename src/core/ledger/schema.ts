import type { SqliteDatabase } from '../sqlite/sqlite-database.js';

export const SCHEMA_VERSION = 1;

// Append-only is enforced by the database itself, not by convention.
const STATEMENTS = [
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
];

export function applySchema(database: SqliteDatabase): void {
  // An existing ledger needs no write lock to open: another process may be holding it.
  if (database.pragma('user_version', { simple: true }) === SCHEMA_VERSION) return;
  database
    .transaction(() => {
      for (const statement of STATEMENTS) database.exec(statement);
      database.pragma(`user_version = ${SCHEMA_VERSION}`);
    })
    .immediate();
}
