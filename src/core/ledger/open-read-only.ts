import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { openSqlite, sqliteOpensBytes } from '../sqlite/open-sqlite.js';
import type { SqliteDatabase } from '../sqlite/sqlite-database.js';
import { checkLedgerPath } from './check-ledger-path.js';

// Bytes 18 and 19 of the SQLite header: file format versions, 2 = WAL, 1 = rollback journal.
const WRITE_VERSION = 18;
const READ_VERSION = 19;

/**
 * Past this size a ledger in WAL mode with no `-wal` beside it (one written before writers
 * switched it back on close, see `Ledger.close`) is opened in place rather than copied:
 * copying costs its whole size in memory (1.5 GB RSS for `tally runs` on a 740 MB ledger).
 */
export const COPY_LIMIT_BYTES = 32 * 1024 * 1024;

function fileStamp(path: string): string {
  const stat = statSync(path);
  return `${stat.size}:${stat.mtimeMs}`;
}

/** The header's write version: 2 when the file is in WAL mode, 1 for a rollback journal. */
function writeVersion(path: string): number | undefined {
  const descriptor = openSync(path, 'r');
  try {
    const header = Buffer.alloc(100);
    return readSync(descriptor, header, 0, 100, 0) === 100 ? header[WRITE_VERSION] : undefined;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Opens a ledger database for reading without touching its folder. A read-only SQLite
 * connection to a WAL database creates `-wal` and `-shm` files beside it when they are missing;
 * a read-only command must create nothing.
 * - A ledger whose last writer closed is in rollback-journal mode (writers switch it back as
 *   they close): an ordinary read-only connection reads the file in place and creates nothing.
 * - While a writer is connected (or one crashed), its `-wal`/`-shm` exist already: the same.
 * - A WAL-mode file with no `-wal` (written before that switch) is read from a copy in memory
 *   when small; a big one (or any, where the driver cannot open bytes) is opened in place as
 *   immutable, which creates nothing. Its next writer's close switches it back.
 */
export function openReadOnlyDatabase(path: string, timeout: number): SqliteDatabase {
  const wal = `${path}-wal`;
  const inPlace = () => openSqlite(path, { readonly: true, fileMustExist: true, timeout });
  // A FIFO would block the header read below (and SQLite's open) forever, waiting for a writer;
  // a directory, a device, a symlink loop or a dangling symlink is no ledger either.
  checkLedgerPath(path);
  if (!existsSync(path) || existsSync(wal) || writeVersion(path) !== 2) return inPlace();
  // A WAL-mode file with no -wal. node:sqlite before Node 24 cannot open bytes, and a big file
  // is not worth holding in memory: the file itself, immutable (no lock, no side files; a writer
  // that starts while it is open is not seen).
  if (!sqliteOpensBytes() || statSync(path).size > COPY_LIMIT_BYTES) {
    return openSqlite(path, { immutable: true, timeout });
  }
  const before = fileStamp(path);
  const copy = readFileSync(path);
  // A writer that connected (or wrote and left) while we read: the copy may be torn.
  if (existsSync(wal) || fileStamp(path) !== before) return inPlace();
  // An in-memory copy cannot use WAL: mark it a rollback-journal file (the pages are the same).
  copy[WRITE_VERSION] = 1;
  copy[READ_VERSION] = 1;
  return openSqlite(copy, { readonly: true });
}
