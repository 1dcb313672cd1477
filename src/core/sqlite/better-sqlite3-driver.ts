import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteOpenOptions } from './sqlite-database.js';

export type BetterSqlite3Constructor = typeof BetterSqlite3;

/**
 * better-sqlite3, loaded only when chosen: it is a native addon built for one Node ABI, and
 * 12.x built against Node ≥ 24.19 aborts the process when a statement is collected. `problem`
 * when it is not installed or not built for this Node (it is an optional dependency).
 */
export function loadBetterSqlite3(): { Database?: BetterSqlite3Constructor; problem?: string } {
  try {
    const require = createRequire(import.meta.url);
    return { Database: require('better-sqlite3') as BetterSqlite3Constructor };
  } catch (error) {
    return { problem: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  }
}

/** better-sqlite3's API is the seam's API: its database is returned as it is. */
export function openBetterSqlite3(
  Database: BetterSqlite3Constructor,
  source: string | Buffer,
  options: SqliteOpenOptions,
): SqliteDatabase {
  return new Database(source, {
    readonly: options.readonly === true,
    fileMustExist: options.fileMustExist === true,
    timeout: options.timeout ?? 5000,
  }) as unknown as SqliteDatabase;
}
