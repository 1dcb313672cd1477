import { existsSync } from 'node:fs';
import type {
  SqliteDatabase,
  SqliteOpenOptions,
  SqliteRunResult,
  SqliteStatement,
  SqliteTransaction,
} from './sqlite-database.js';
import { sqliteCodeName } from './sqlite-error-codes.js';

// node:sqlite's own types are not in @types/node 20 (the Node this project builds with):
// the part of it used here, checked at load time (`isUsableNodeSqlite`).
type Row = Record<string, unknown>;
export interface NodeStatementSync {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  setReturnArrays?(enabled: boolean): void;
  setAllowUnknownNamedParameters?(enabled: boolean): void;
}
export interface NodeDatabaseSync {
  prepare(sql: string): NodeStatementSync;
  exec(sql: string): void;
  close(): void;
  deserialize?(bytes: Uint8Array): void;
}
export interface NodeSqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => NodeDatabaseSync;
  StatementSync: { prototype: object };
}

/** node:sqlite as Tally needs it: unflagged and with `StatementSync#iterate` (Node ≥ 22.13 / 23.4). */
export function isUsableNodeSqlite(module: unknown): module is NodeSqliteModule {
  const candidate = module as Partial<NodeSqliteModule> | undefined;
  return (
    typeof candidate?.DatabaseSync === 'function' &&
    typeof (candidate.StatementSync?.prototype as { iterate?: unknown } | undefined)?.iterate === 'function'
  );
}

/** node:sqlite throws `ERR_SQLITE_ERROR` with the number in `errcode`: give it better-sqlite3's name. */
function asSqliteError(error: unknown): unknown {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  if (error instanceof Error && typeof errcode === 'number')
    Object.defineProperty(error, 'code', {
      value: sqliteCodeName(errcode),
      configurable: true,
      writable: true,
    });
  return error;
}

/** BLOBs arrive as Uint8Array; callers (and better-sqlite3) expect Buffers. Same memory, no copy. */
function blob(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : value;
}

/**
 * Node 22's node:sqlite binds an empty view of a zero-length ArrayBuffer (no backing memory:
 * `Buffer.from(new Float64Array(0).buffer)`) as NULL, not as an empty BLOB; a NOT NULL column
 * then refuses it. Such a view is replaced by an empty Buffer, which binds as an empty BLOB on
 * every Node. Parameters are copied only when one needs it.
 */
function emptyBlobsBound(params: unknown[]): unknown[] {
  for (let i = 0; i < params.length; i++) {
    const param = params[i];
    if (typeof param !== 'object' || param === null) continue;
    if (param instanceof Uint8Array) {
      if (param.byteLength === 0) return params.map(emptyBlobBound);
    } else
      for (const key in param) {
        const value = (param as Row)[key];
        if (value instanceof Uint8Array && value.byteLength === 0) return params.map(emptyBlobBound);
      }
  }
  return params;
}

function emptyBlobBound(param: unknown): unknown {
  if (param instanceof Uint8Array) return param.byteLength === 0 ? Buffer.alloc(0) : param;
  if (typeof param !== 'object' || param === null) return param;
  const named: Row = {};
  for (const key in param) named[key] = emptyBlobBound((param as Row)[key]);
  return named;
}

type Mode = 'object' | 'pluck' | 'raw';

class NodeStatement implements SqliteStatement {
  private mode: Mode = 'object';
  /** Whether the statement itself returns arrays (node ≥ 22.16 / 24: `setReturnArrays`). */
  private arrays = false;

  constructor(private readonly statement: NodeStatementSync) {
    // better-sqlite3 ignores named parameters a statement does not use; node:sqlite throws.
    // Queries that share one parameter object (the stats) rely on the former.
    statement.setAllowUnknownNamedParameters?.(true);
  }

  pluck(toggle = true): this {
    return this.setMode(toggle ? 'pluck' : this.mode === 'pluck' ? 'object' : this.mode);
  }

  raw(toggle = true): this {
    return this.setMode(toggle ? 'raw' : this.mode === 'raw' ? 'object' : this.mode);
  }

  private setMode(mode: Mode): this {
    this.mode = mode;
    const arrays = mode !== 'object';
    if (this.statement.setReturnArrays && arrays !== this.arrays) {
      this.statement.setReturnArrays(arrays);
      this.arrays = arrays;
    }
    return this;
  }

  /** One row as the mode wants it, BLOBs as Buffers. */
  private shape(row: unknown): unknown {
    if (row === undefined) return undefined;
    if (this.mode === 'object') {
      const object = row as Row;
      for (const key in object) {
        const value = object[key];
        if (typeof value === 'object' && value !== null) object[key] = blob(value);
      }
      return object;
    }
    const values = this.arrays ? (row as unknown[]) : Object.values(row as Row);
    if (this.mode === 'pluck') return blob(values[0]);
    for (let i = 0; i < values.length; i++) values[i] = blob(values[i]);
    return values;
  }

  run(...params: unknown[]): SqliteRunResult {
    try {
      return this.statement.run(...emptyBlobsBound(params));
    } catch (error) {
      throw asSqliteError(error);
    }
  }

  get(...params: unknown[]): unknown {
    try {
      return this.shape(this.statement.get(...emptyBlobsBound(params)));
    } catch (error) {
      throw asSqliteError(error);
    }
  }

  all(...params: unknown[]): unknown[] {
    let rows: unknown[];
    try {
      rows = this.statement.all(...emptyBlobsBound(params));
    } catch (error) {
      throw asSqliteError(error);
    }
    for (let i = 0; i < rows.length; i++) rows[i] = this.shape(rows[i]);
    return rows;
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    let rows: IterableIterator<unknown>;
    try {
      rows = this.statement.iterate(...emptyBlobsBound(params));
    } catch (error) {
      throw asSqliteError(error);
    }
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = rows.next();
      } catch (error) {
        throw asSqliteError(error);
      }
      if (next.done) return;
      yield this.shape(next.value);
    }
  }
}

class NodeDatabase implements SqliteDatabase {
  private isOpen = true;
  /** Open transactions: the outermost is BEGIN…COMMIT, nested ones are savepoints. */
  private depth = 0;

  constructor(private readonly database: NodeDatabaseSync) {}

  get open(): boolean {
    return this.isOpen;
  }

  prepare(sql: string): SqliteStatement {
    try {
      return new NodeStatement(this.database.prepare(sql));
    } catch (error) {
      throw asSqliteError(error);
    }
  }

  exec(sql: string): this {
    try {
      this.database.exec(sql);
    } catch (error) {
      throw asSqliteError(error);
    }
    return this;
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`);
    return options.simple ? statement.pluck().get() : statement.all();
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): SqliteTransaction<F> {
    const inTransaction = (begin: string) =>
      ((...args: Parameters<F>): ReturnType<F> => {
        if (this.depth > 0) return this.savepoint(fn, args);
        this.exec(begin);
        this.depth = 1;
        try {
          const result = fn(...args) as ReturnType<F>;
          this.exec('COMMIT');
          return result;
        } catch (error) {
          // A failed COMMIT may have ended the transaction already; ROLLBACK then fails too.
          try {
            this.database.exec('ROLLBACK');
          } catch {}
          throw error;
        } finally {
          this.depth = 0;
        }
      }) as (...args: Parameters<F>) => ReturnType<F>;
    return Object.assign(inTransaction('BEGIN'), {
      deferred: inTransaction('BEGIN DEFERRED'),
      immediate: inTransaction('BEGIN IMMEDIATE'),
      exclusive: inTransaction('BEGIN EXCLUSIVE'),
    });
  }

  private savepoint<F extends (...args: never[]) => unknown>(fn: F, args: Parameters<F>): ReturnType<F> {
    const name = `tally_${this.depth}`;
    this.exec(`SAVEPOINT ${name}`);
    this.depth++;
    try {
      const result = fn(...args) as ReturnType<F>;
      this.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.exec(`ROLLBACK TO ${name}`);
      this.exec(`RELEASE ${name}`);
      throw error;
    } finally {
      this.depth--;
    }
  }

  close(): void {
    if (!this.isOpen) return;
    this.database.close();
    this.isOpen = false;
  }
}

function cantOpen(message: string): Error {
  return Object.assign(new Error(message), { code: 'SQLITE_CANTOPEN' });
}

/** Opens a database file (or an in-memory copy of one's bytes) with node:sqlite. */
export function openNodeSqlite(
  sqlite: NodeSqliteModule,
  source: string | Buffer,
  options: SqliteOpenOptions,
): SqliteDatabase {
  let database: NodeDatabaseSync;
  if (typeof source !== 'string') {
    database = new sqlite.DatabaseSync(':memory:');
    if (!database.deserialize) {
      database.close();
      throw cantOpen('this Node.js has no node:sqlite deserialize (Node 24 has it); open the file instead');
    }
    try {
      database.deserialize(source);
    } catch (error) {
      database.close();
      throw asSqliteError(error);
    }
  } else {
    if (options.fileMustExist && !existsSync(source)) throw cantOpen('unable to open database file');
    try {
      database = new sqlite.DatabaseSync(source, { readOnly: options.readonly === true });
    } catch (error) {
      throw asSqliteError(error);
    }
  }
  const wrapped = new NodeDatabase(database);
  try {
    // better-sqlite3 sets the busy timeout before anything reads the file; so does this.
    wrapped.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.timeout ?? 5000))}`);
    // An in-memory copy has no read-only flag of its own.
    if (typeof source !== 'string' && options.readonly) wrapped.exec('PRAGMA query_only = ON');
  } catch (error) {
    wrapped.close();
    throw error;
  }
  return wrapped;
}

/** Whether node:sqlite here can open a database from its bytes (`deserialize`, Node ≥ 24). */
export function nodeSqliteOpensBytes(sqlite: NodeSqliteModule): boolean {
  return typeof (sqlite.DatabaseSync.prototype as { deserialize?: unknown }).deserialize === 'function';
}
