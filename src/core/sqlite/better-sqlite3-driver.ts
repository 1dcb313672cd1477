import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { type BundledBetterSqlite3, bundledBetterSqlite3 } from './bundled-better-sqlite3.js';
import type { SqliteDatabase, SqliteOpenOptions } from './sqlite-database.js';

export type BetterSqlite3Constructor = typeof BetterSqlite3;

/** better-sqlite3's constructor and, where it sits where the `bindings` package looks first, its native addon. */
export interface BetterSqlite3Driver {
  Database: BetterSqlite3Constructor;
  /** The addon's path; undefined: better-sqlite3 finds it itself through `bindings`. */
  addon?: string | undefined;
}

/**
 * Where `bindings` (better-sqlite3's own addon lookup) looks first, in its order. Naming the file
 * skips that package and its search (~6 ms of every ledger open on Node 20, issue 22); an addon
 * anywhere else is still found by better-sqlite3 as before.
 */
const ADDON_PLACES = [['build'], ['build', 'Debug'], ['build', 'Release']] as const;

/** The addon file of the better-sqlite3 installed at `packageJson`, where bindings would load it first. */
export function betterSqlite3Addon(packageJson: string): string | undefined {
  const root = dirname(packageJson);
  for (const place of ADDON_PLACES) {
    const file = join(root, ...place, 'better_sqlite3.node');
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * better-sqlite3, loaded only when chosen: it is a native addon built for one Node ABI, and
 * 12.x built against Node ≥ 24.19 aborts the process when a statement is collected. `problem`
 * when it is not installed or not built for this Node (it is an optional dependency).
 */
export function loadBetterSqlite3(): Partial<BetterSqlite3Driver> & { problem?: string } {
  try {
    const require = createRequire(import.meta.url);
    // Not installed: the error loading it would give (the problem's words stay the same).
    require.resolve('better-sqlite3');
    const packageJson = require.resolve('better-sqlite3/package.json');
    const addon = betterSqlite3Addon(packageJson);
    const bundled = bundledFor(bundledBetterSqlite3, packageJson, addon);
    const Database = bundled ? bundled.load() : (require('better-sqlite3') as BetterSqlite3Constructor);
    return { Database, addon };
  } catch (error) {
    return { problem: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  }
}

/**
 * The bundled copy of better-sqlite3's JavaScript, where it may stand in for the installed one:
 * the same version (its JavaScript and its addon go together) and an addon found by path (the
 * bundle cannot reach `bindings`' search). Anything else, or an unreadable package.json: the
 * installed package, as before.
 */
export function bundledFor(
  bundled: BundledBetterSqlite3 | undefined,
  packageJson: string,
  addon: string | undefined,
): BundledBetterSqlite3 | undefined {
  if (!bundled || !addon) return undefined;
  try {
    const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown };
    return version === bundled.version ? bundled : undefined;
  } catch {
    return undefined;
  }
}

/** better-sqlite3's API is the seam's API: its database is returned as it is. */
export function openBetterSqlite3(
  driver: BetterSqlite3Driver,
  source: string | Buffer,
  options: SqliteOpenOptions,
): SqliteDatabase {
  return new driver.Database(source, {
    readonly: options.readonly === true,
    fileMustExist: options.fileMustExist === true,
    timeout: options.timeout ?? 5000,
    ...(driver.addon ? { nativeBinding: driver.addon } : {}),
  }) as unknown as SqliteDatabase;
}
