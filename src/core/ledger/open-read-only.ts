import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';

// Loaded on first use: the turn-gate hooks import this module, and most hook calls never open
// a ledger — the native module would cost every call its load time.
// (require keeps its own cache: the second open does not load it again).
const load = createRequire(import.meta.url);
const openDatabase = (...args: ConstructorParameters<typeof Database>): Database.Database => {
  const sqlite = load('better-sqlite3') as typeof Database;
  return new sqlite(...args);
};

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
export function openReadOnlyDatabase(path: string, timeout: number): Database.Database {
  const wal = `${path}-wal`;
  if (!existsSync(wal)) {
    const before = fileStamp(path);
    const copy = readFileSync(path);
    // A writer that connected (or wrote and left) while we read: the copy may be torn.
    if (!existsSync(wal) && fileStamp(path) === before) {
      // An in-memory copy cannot use WAL: mark it a rollback-journal file (the pages are the same).
      if (copy.length >= 100) {
        copy[WRITE_VERSION] = 1;
        copy[READ_VERSION] = 1;
      }
      return openDatabase(copy, { readonly: true });
    }
  }
  return openDatabase(path, { readonly: true, fileMustExist: true, timeout });
}
