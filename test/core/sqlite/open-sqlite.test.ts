// The SQLite seam: which driver this Node gets, and that both behave as the ledger and the
// records index expect (better-sqlite3's API, its error codes, BLOBs as Buffers).
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isBusyError } from '../../../src/core/ledger/busy-retry.js';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { betterSqlite3Addon, bundledFor } from '../../../src/core/sqlite/better-sqlite3-driver.js';
import { bundledBetterSqlite3 } from '../../../src/core/sqlite/bundled-better-sqlite3.js';
import { openSqlite, sqliteDriver, sqliteOpensBytes } from '../../../src/core/sqlite/open-sqlite.js';
import { tempDir } from '../../helpers.js';

const run = promisify(execFile);
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** node:sqlite is there without a flag from 22.13 and 23.4 on. */
const hasNodeSqlite = major >= 24 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);

function codeOf(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return 'no error';
}

describe('the SQLite driver', () => {
  it(`is node:sqlite where Node has it unflagged, else better-sqlite3 (here: Node ${process.versions.node})`, () => {
    expect(sqliteDriver()).toBe(hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3');
    // better-sqlite3 12.x built for Node >= 24.19 aborts the process: never load it beside node:sqlite.
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) =>
      path.includes(`${join('node_modules', 'better-sqlite3')}`),
    );
    if (hasNodeSqlite) expect(loaded).toEqual([]);
    else expect(loaded.length).toBeGreaterThan(0);
  });

  it.skipIf(hasNodeSqlite)(
    'better-sqlite3 opens its addon by path: the `bindings` package and its search never load (issue 22)',
    () => {
      openSqlite(':memory:').close();
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      expect(loaded.some((path) => path.endsWith('better_sqlite3.node'))).toBe(true);
      expect(loaded.filter((path) => path.includes(join('node_modules', 'bindings')))).toEqual([]);
    },
  );

  it('names the addon where `bindings` would take it first (build/, build/Debug, build/Release), else leaves the search to it', () => {
    const root = tempDir();
    const packageJson = join(root, 'package.json');
    const place = (...parts: string[]) => {
      mkdirSync(join(root, ...parts), { recursive: true });
      writeFileSync(join(root, ...parts, 'better_sqlite3.node'), '');
      return join(root, ...parts, 'better_sqlite3.node');
    };
    expect(betterSqlite3Addon(packageJson)).toBeUndefined();
    place('lib', 'binding', 'node-v115-linux-x64');
    expect(betterSqlite3Addon(packageJson)).toBeUndefined();
    const release = place('build', 'Release');
    expect(betterSqlite3Addon(packageJson)).toBe(release);
    const debug = place('build', 'Debug');
    expect(betterSqlite3Addon(packageJson)).toBe(debug);
    expect(betterSqlite3Addon(packageJson)).not.toBe(release);
  });

  it("uses the CLI bundle's copy of better-sqlite3's JavaScript only beside the same installed version, with its addon found by path", () => {
    const root = tempDir();
    const packageJson = join(root, 'package.json');
    const addon = join(root, 'build', 'Release', 'better_sqlite3.node');
    const bundled = {
      version: '12.11.1',
      load: () => {
        throw new Error('only chosen here, not loaded');
      },
    };
    writeFileSync(packageJson, JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));
    expect(bundledFor(bundled, packageJson, addon)).toBe(bundled);
    // Another version: its JavaScript and its addon go together, so the installed package loads.
    writeFileSync(packageJson, JSON.stringify({ name: 'better-sqlite3', version: '12.12.0' }));
    expect(bundledFor(bundled, packageJson, addon)).toBeUndefined();
    // No addon by path: only the installed package's `bindings` search finds it.
    writeFileSync(packageJson, JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));
    expect(bundledFor(bundled, packageJson, undefined)).toBeUndefined();
    // An unreadable package.json, or none bundled (dist/, which loads from node_modules).
    writeFileSync(packageJson, '{ not json');
    expect(bundledFor(bundled, packageJson, addon)).toBeUndefined();
    expect(bundledFor(undefined, packageJson, addon)).toBeUndefined();
    expect(bundledBetterSqlite3).toBeUndefined();
  });

  it('carries a ledger round trip: written, closed, reopened read-only with nothing created beside it', () => {
    const dir = tempDir();
    const path = join(dir, 'ledger.db');
    const ledger = Ledger.open(path);
    const recorder = ledger.startRun({ agent: 'a', task: 'round trip' });
    recorder.append({ kind: 'tool_call', name: 'http_request', outcome: 'ok', data: { status: 201, id: 7 } });
    recorder.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
    ledger.close();
    const files = readdirSync(dir).sort();

    const reader = Ledger.open(path, { readonly: true });
    expect(
      reader.entries(recorder.runId).map((entry) => [entry.seq, entry.kind, entry.outcome, entry.data]),
    ).toEqual([
      [1, 'tool_call', 'ok', { status: 201, id: 7 }],
      [2, 'end', 'finished', { status: 'success' }],
    ]);
    expect(reader.listRuns().map((listing) => [listing.task, listing.status, listing.toolCalls])).toEqual([
      ['round trip', 'success', 1],
    ]);
    reader.close();
    expect(readdirSync(dir).sort()).toEqual(files);
  });

  it("reports SQLite's errors by better-sqlite3's codes: busy, constraint, read-only, not a database, missing file", () => {
    const dir = tempDir();
    const path = join(dir, 'codes.db');
    const writer = openSqlite(path);
    writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    writer.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(1, 'one');
    expect(codeOf(() => writer.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(1, 'again'))).toBe(
      'SQLITE_CONSTRAINT_PRIMARYKEY',
    );

    const other = openSqlite(path, { timeout: 0 });
    writer.exec('BEGIN IMMEDIATE');
    let busy: unknown;
    try {
      other.exec('BEGIN IMMEDIATE');
    } catch (error) {
      busy = error;
    }
    expect((busy as { code?: unknown }).code).toBe('SQLITE_BUSY');
    expect(isBusyError(busy)).toBe(true);
    writer.exec('COMMIT');
    other.close();
    writer.close();

    const reader = openSqlite(path, { readonly: true });
    expect(codeOf(() => reader.exec("INSERT INTO t (name) VALUES ('x')"))).toBe('SQLITE_READONLY');
    reader.close();

    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database '.repeat(400));
    expect(codeOf(() => openSqlite(junk).pragma('user_version', { simple: true }))).toBe('SQLITE_NOTADB');
    expect(codeOf(() => openSqlite(join(dir, 'missing.db'), { fileMustExist: true }))).toBe(
      'SQLITE_CANTOPEN',
    );
    expect(readdirSync(dir)).not.toContain('missing.db');
  });

  it('speaks the better-sqlite3 subset: named parameters, pluck, raw, iterate, BLOBs as Buffers, pragma', () => {
    const db = openSqlite(':memory:');
    db.exec('CREATE TABLE r (k TEXT, v INTEGER, b BLOB)');
    const insert = db.prepare('INSERT INTO r (k, v, b) VALUES (@k, @v, @b)');
    expect(insert.run({ k: 'a', v: 1, b: Buffer.from('alpha') }).changes).toBe(1);
    insert.run({ k: 'b', v: 2, b: Buffer.from('beta') });
    expect(db.prepare('SELECT v FROM r WHERE k = ?').pluck().get('b')).toBe(2);
    expect(db.prepare('SELECT k, v FROM r ORDER BY k').raw().all()).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect([...db.prepare('SELECT k FROM r ORDER BY k DESC').pluck().iterate()]).toEqual(['b', 'a']);
    const row = db.prepare('SELECT b FROM r WHERE k = ?').get('a') as { b: Buffer };
    expect(Buffer.isBuffer(row.b)).toBe(true);
    expect(row.b.toString('utf8')).toBe('alpha');
    expect(db.prepare('SELECT k FROM r WHERE v > ?').get(5)).toBeUndefined();
    // One parameter object shared by several queries (the stats do this): unused names are ignored.
    expect(db.prepare('SELECT k FROM r WHERE v = @v').pluck().get({ v: 2, since: 'x' })).toBe('b');
    db.pragma('user_version = 7');
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    expect(db.open).toBe(true);
    db.close();
    expect(db.open).toBe(false);
  });

  it('binds an empty BLOB as an empty BLOB, not NULL, even a view of a zero-length ArrayBuffer', () => {
    // Node 22's node:sqlite bound the latter as NULL (a records index of an empty folder failed
    // its NOT NULL snapshot).
    const db = openSqlite(':memory:');
    db.exec('CREATE TABLE r (b BLOB NOT NULL)');
    const empties = [
      Buffer.from(new Float64Array(0).buffer),
      new Uint8Array(new ArrayBuffer(0)),
      Buffer.alloc(0),
    ];
    for (const empty of empties) db.prepare('INSERT INTO r (b) VALUES (?)').run(empty);
    for (const empty of empties) db.prepare('INSERT INTO r (b) VALUES (@b)').run({ b: empty });
    expect(
      db.prepare("SELECT count(*) FROM r WHERE typeof(b) = 'blob' AND length(b) = 0").pluck().get(),
    ).toBe(6);
    expect(db.prepare('SELECT count(*) FROM r WHERE b = ?').pluck().get(empties[0])).toBe(6);
    const stored = db.prepare('SELECT b FROM r LIMIT 1').pluck().get() as Buffer;
    expect(Buffer.isBuffer(stored) && stored.length).toBe(0);
    db.close();
  });

  it('runs transactions: commit, rollback on throw, a nested one rolled back alone', () => {
    const db = openSqlite(':memory:');
    db.exec('CREATE TABLE n (x INTEGER)');
    const add = db.prepare('INSERT INTO n (x) VALUES (?)');
    const count = () => db.prepare('SELECT COUNT(*) FROM n').pluck().get();
    db.transaction((xs: number[]) => {
      for (const x of xs) add.run(x);
    }).immediate([1, 2]);
    expect(count()).toBe(2);
    const failing = db.transaction(() => {
      add.run(3);
      throw new Error('undo');
    });
    expect(() => failing()).toThrow('undo');
    expect(count()).toBe(2);
    const inner = db.transaction(() => {
      add.run(4);
      throw new Error('inner');
    });
    db.transaction(() => {
      add.run(5);
      expect(() => inner()).toThrow('inner');
    })();
    expect(db.prepare('SELECT x FROM n ORDER BY x').pluck().all()).toEqual([1, 2, 5]);
    db.close();
  });

  it('opens a database from its bytes where the driver can, read-only', () => {
    if (!sqliteOpensBytes()) {
      // Node 22's node:sqlite has no deserialize: the read-only ledger opens the file immutable instead.
      expect(sqliteDriver()).toBe('node:sqlite');
      return;
    }
    const source = openSqlite(':memory:');
    source.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('copied')");
    const path = join(tempDir(), 'bytes.db');
    source.exec(`VACUUM INTO '${path}'`);
    source.close();
    const bytes = openSqlite(readFileSync(path), { readonly: true });
    expect(bytes.prepare('SELECT x FROM t').pluck().get()).toBe('copied');
    expect(codeOf(() => bytes.exec("INSERT INTO t VALUES ('no')"))).toMatch(/^SQLITE_(READONLY|ERROR)/);
    bytes.close();
  });

  it("keeps stderr clean: node:sqlite's ExperimentalWarning is dropped, other warnings still print", async () => {
    const script = `
      import { openSqlite } from ${JSON.stringify(join(import.meta.dirname, '../../../src/core/sqlite/open-sqlite.ts'))};
      openSqlite(':memory:').close();
      process.emitWarning('another experiment', 'ExperimentalWarning');
    `;
    const { stdout, stderr } = await run(process.execPath, [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^\(node:\d+\) ExperimentalWarning: another experiment\n/);
    expect(stderr).not.toMatch(/SQLite/);
  });
});
