/**
 * The subset of better-sqlite3's API that Tally uses, as the one SQLite interface of the
 * code base. Both drivers (`node:sqlite`, better-sqlite3) are reached only through it, so
 * call sites read like better-sqlite3 whichever one is loaded.
 */

export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

export interface SqliteRunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

/**
 * A prepared statement. Parameters: positional values, or one object of named values
 * (`@name`, `:name`, `$name` bound by bare name) followed by positional ones. BLOBs come back
 * as Buffers. `pluck()` returns the first column only, `raw()` rows as arrays; both change
 * this statement and return it, as in better-sqlite3.
 */
export interface SqliteStatement {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggle?: boolean): this;
  raw(toggle?: boolean): this;
}

/** A function wrapped in BEGIN/COMMIT (ROLLBACK on throw; a SAVEPOINT when already in one). */
export interface SqliteTransaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  deferred(...args: Parameters<F>): ReturnType<F>;
  immediate(...args: Parameters<F>): ReturnType<F>;
  exclusive(...args: Parameters<F>): ReturnType<F>;
}

export interface SqliteDatabase {
  /** False once closed. */
  readonly open: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): this;
  /** `PRAGMA source`: every row, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): SqliteTransaction<F>;
  close(): void;
}

export interface SqliteOpenOptions {
  readonly?: boolean;
  /** Refuse to create the file (SQLITE_CANTOPEN when it is missing). */
  fileMustExist?: boolean;
  /** Busy timeout in milliseconds (default 5000, as in better-sqlite3). */
  timeout?: number;
  /**
   * Open read-only as an immutable file (`?immutable=1`): no locks, no `-wal`/`-shm` created,
   * a WAL file beside it ignored. Only for a file no one writes while it is open.
   */
  immutable?: boolean;
}

/** An error from SQLite, with better-sqlite3's `code` (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_PRIMARYKEY`, …) on either driver. */
export interface SqliteError extends Error {
  code: string;
}
