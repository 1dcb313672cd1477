import { pathToFileURL } from 'node:url';
import { type BetterSqlite3Driver, loadBetterSqlite3, openBetterSqlite3 } from './better-sqlite3-driver.js';
import {
  isUsableNodeSqlite,
  type NodeSqliteModule,
  nodeSqliteOpensBytes,
  openNodeSqlite,
} from './node-sqlite-driver.js';
import type { SqliteDatabase, SqliteDriverName, SqliteOpenOptions } from './sqlite-database.js';

type Driver =
  | { name: 'node:sqlite'; module: NodeSqliteModule }
  | { name: 'better-sqlite3'; open: BetterSqlite3Driver }
  | { name: 'none'; problem: string };

/** The driver, chosen once per process. */
const chosen: { driver?: Driver } = {};

const SQLITE_WARNING = /^SQLite is an experimental feature/;

/**
 * node:sqlite without its one start-up line: on Node 22 loading it prints "ExperimentalWarning:
 * SQLite is an experimental feature…" to stderr, which would land in every CLI command's output.
 * Only that warning is dropped, only while the module loads; undefined where it is missing or
 * still behind --experimental-sqlite (Node < 22.13).
 */
function loadNodeSqlite(): NodeSqliteModule | undefined {
  const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltinModule !== 'function') return undefined;
  const emitWarning = process.emitWarning;
  process.emitWarning = function emitOtherWarnings(warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && SQLITE_WARNING.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const module = getBuiltinModule.call(process, 'node:sqlite');
    return isUsableNodeSqlite(module) ? module : undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * The built-in node:sqlite where Node has it unflagged (≥ 22.13, ≥ 23.4; nothing to build, and
 * better-sqlite3 12.x crashes Node 24), else better-sqlite3 (Node 20, early 22 and 23).
 */
function driver(): Driver {
  if (chosen.driver) return chosen.driver;
  const module = loadNodeSqlite();
  if (module) chosen.driver = { name: 'node:sqlite', module };
  else {
    const better = loadBetterSqlite3();
    chosen.driver = better.Database
      ? { name: 'better-sqlite3', open: { Database: better.Database, addon: better.addon } }
      : {
          name: 'none',
          problem: `Tally needs SQLite: Node.js ${process.versions.node} has no usable node:sqlite (it needs Node 22.13 or newer) and better-sqlite3 did not load (${better.problem}). Use Node 22.13+ or 24, or reinstall Tally so that better-sqlite3 builds for this Node (python3, make and a C++ compiler)`,
        };
  }
  return chosen.driver;
}

/** Which driver this process uses (`node:sqlite` or `better-sqlite3`); throws when neither loads. */
export function sqliteDriver(): SqliteDriverName {
  const current = driver();
  if (current.name === 'none') throw new Error(current.problem);
  return current.name;
}

/** Whether `openSqlite` takes a database's bytes here (better-sqlite3; node:sqlite from Node 24). */
export function sqliteOpensBytes(): boolean {
  const current = driver();
  return (
    current.name === 'better-sqlite3' ||
    (current.name === 'node:sqlite' && nodeSqliteOpensBytes(current.module))
  );
}

/**
 * Opens a SQLite database: a file path, or (read-only use) an in-memory copy of a database's
 * bytes. Every SQLite user in Tally opens through here.
 */
export function openSqlite(source: string | Buffer, options: SqliteOpenOptions = {}): SqliteDatabase {
  const current = driver();
  if (current.name === 'none') throw new Error(current.problem);
  const target =
    options.immutable && typeof source === 'string' ? `${pathToFileURL(source).href}?immutable=1` : source;
  // An immutable open never creates the file: `fileMustExist` would test the URI, not the path.
  const settings = options.immutable ? { ...options, readonly: true, fileMustExist: false } : options;
  return current.name === 'node:sqlite'
    ? openNodeSqlite(current.module, target, settings)
    : openBetterSqlite3(current.open, target, settings);
}
