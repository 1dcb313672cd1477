import { existsSync, readFileSync, statSync } from 'node:fs';
import { openSqlite, sqliteOpensBytes } from '../sqlite/open-sqlite.js';
import type { SqliteDatabase } from '../sqlite/sqlite-database.js';

// Bytes 18 and 19 of the SQLite header: file format versions, 2 = WAL, 1 = rollback journal.
const WRITE_VERSION = 18;
const READ_VERSION = 19;

function fileStamp(path: string): string {
  const stat = statSync(path);
  return `${stat.size}:${stat.mtimeMs}`;
}

/**
 * Opens a ledger database for reading without touching its folder. A read-only SQLite
 * connection to a WAL database creates `-wal` and `-shm` files beside it; a read-only command
 * must create nothing. When no writer is connected (no `-wal` file), the file is complete:
 * read a copy into memory. While a writer is connected (or one crashed), its files exist
 * already, so a plain read-only connection creates nothing and sees committed WAL pages.
 */
export function openReadOnlyDatabase(path: string, timeout: number): SqliteDatabase {
  const wal = `${path}-wal`;
  if (!existsSync(wal)) {
    const before = fileStamp(path);
    // node:sqlite before Node 24 cannot open bytes: the file itself, immutable (no lock, no
    // side files; pages are read while it is open, so a writer starting meanwhile is not seen).
    if (!sqliteOpensBytes()) return openSqlite(path, { immutable: true, timeout });
    const copy = readFileSync(path);
    // A writer that connected (or wrote and left) while we read: the copy may be torn.
    if (!existsSync(wal) && fileStamp(path) === before) {
      // An in-memory copy cannot use WAL: mark it a rollback-journal file (the pages are the same).
      if (copy.length >= 100) {
        copy[WRITE_VERSION] = 1;
        copy[READ_VERSION] = 1;
      }
      return openSqlite(copy, { readonly: true });
    }
  }
  return openSqlite(path, { readonly: true, fileMustExist: true, timeout });
}
