import type BetterSqlite3 from 'better-sqlite3';

/** better-sqlite3's JavaScript carried inside a launcher bundle, and the version it came from. */
export interface BundledBetterSqlite3 {
  version: string;
  load(): typeof BetterSqlite3;
}

/**
 * Undefined here: dist/ loads better-sqlite3 from node_modules. The CLI bundle's build
 * (scripts/bundle-fast-paths.mjs) replaces this module with one carrying the package's
 * JavaScript, so `tally fish` on Node 20 compiles its ~12 files with the bundle's cached code
 * instead of resolving, reading and compiling each (issue 22). Used only where the installed
 * package is that same version (see better-sqlite3-driver.ts).
 */
export const bundledBetterSqlite3: BundledBetterSqlite3 | undefined = undefined;
