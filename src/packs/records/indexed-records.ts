import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { tokenize } from './bm25.js';
import type { RecordQuery, RecordRow, RecordSource, SkippedRecord } from './record-query.js';
import { FAILURE_STORE, isFailureMode, projectMatches } from './record-query.js';
import { RecordsUnavailableError } from './records-error.js';
import { listRecordFiles, readRecord, type ScannedFile } from './scan-stores.js';
import { secureStateDir } from './secure-state-dir.js';
import type { StoreInfo } from './stores.js';

const VERSION = '4';

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS dirs (path TEXT PRIMARY KEY, mtime REAL NOT NULL)',
  `CREATE TABLE IF NOT EXISTS records (path TEXT PRIMARY KEY, store TEXT NOT NULL, absolute TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL,
     id TEXT, kind TEXT, project TEXT, gloss TEXT NOT NULL, row TEXT NOT NULL, body TEXT, skipped TEXT)`,
  'CREATE INDEX IF NOT EXISTS records_kind ON records (kind)',
  'CREATE INDEX IF NOT EXISTS records_id ON records (id)',
  'CREATE TABLE IF NOT EXISTS links (path TEXT NOT NULL, target TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS links_target ON links (target)',
  "CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(path UNINDEXED, keywords, title, gloss, tokenize = 'unicode61 remove_diacritics 2')",
];

function statOrUndefined(path: string): { mtimeMs: number; size: number; isDirectory: boolean } | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats ? { mtimeMs: stats.mtimeMs, size: stats.size, isDirectory: stats.isDirectory() } : undefined;
}

/**
 * The on-disk index (SQLite + FTS5, BM25 ranking). Every call checks it against the stores:
 * a changed directory (a file added, removed, renamed or saved atomically) re-lists files;
 * a changed file mtime or size (an in-place edit) re-reads that file. Nothing stale answers.
 */
export class IndexedRecords implements RecordSource {
  private constructor(private readonly database: Database.Database) {}

  /**
   * `check: 'files'` (default) also stats every record, catching in-place edits; `'dirs'`
   * trusts directory mtimes alone (adds, removes, renames and atomic saves) — faster on very
   * large corpora, blind to an editor that rewrites a file in place.
   */
  static open(
    root: string,
    stores: StoreInfo[],
    indexPath: string,
    check: 'files' | 'dirs' = 'files',
  ): IndexedRecords {
    ensureIndexDir(dirname(indexPath), indexPath === defaultIndexPath(root, {}));
    const database = new Database(indexPath, { timeout: 10_000 });
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    for (const statement of SCHEMA) database.exec(statement);
    const index = new IndexedRecords(database);
    index.refresh(root, stores, check);
    return index;
  }

  private refresh(root: string, stores: StoreInfo[], check: 'files' | 'dirs'): void {
    const db = this.database;
    const signature = JSON.stringify({
      VERSION,
      root,
      stores: stores.map((store) => [store.store, store.exists]),
    });
    const meta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    const fresh = meta.get('signature') === signature;
    let relist = !fresh;
    if (fresh) {
      for (const row of db.prepare('SELECT path, mtime FROM dirs').all() as {
        path: string;
        mtime: number;
      }[]) {
        const stats = statOrUndefined(row.path);
        if (!stats || stats.mtimeMs !== row.mtime) {
          relist = true;
          break;
        }
      }
    }
    if (!relist) {
      // The common case: nothing changed. Check without building any objects.
      if (check === 'dirs') return;
      let dirty = false;
      for (const [absolute, mtime, size] of db
        .prepare('SELECT absolute, mtime, size FROM records')
        .raw()
        .iterate() as IterableIterator<[string, number, number]>) {
        const stats = statSync(absolute, { throwIfNoEntry: false });
        if (!stats || stats.mtimeMs !== mtime || stats.size !== size) {
          dirty = true;
          break;
        }
      }
      if (!dirty) return;
    }
    const known = new Map(
      (
        db.prepare('SELECT path, absolute, store, mtime, size FROM records').all() as {
          path: string;
          absolute: string;
          store: string;
          mtime: number;
          size: number;
        }[]
      ).map((row) => [row.path, row]),
    );
    let files: ScannedFile[];
    let dirs: string[] | undefined;
    if (relist) {
      const listed = listRecordFiles(root, stores);
      files = listed.files;
      dirs = listed.dirs;
    } else {
      files = [...known.values()].map((row) => ({
        path: row.path,
        store: row.store,
        absolute: row.absolute,
      }));
    }
    const present = new Set(files.map((file) => file.path));
    const changed = files.filter((file) => {
      const row = known.get(file.path);
      if (!row) return true;
      if (check === 'dirs' && !relist) return false;
      const stats = statOrUndefined(file.absolute);
      return !stats || stats.mtimeMs !== row.mtime || stats.size !== row.size;
    });
    const removed = [...known.keys()].filter((path) => !present.has(path));
    if (!relist && changed.length === 0) return;
    const insertRecord = db.prepare(
      'INSERT OR REPLACE INTO records (path, store, absolute, mtime, size, id, kind, project, gloss, row, body, skipped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertLink = db.prepare('INSERT INTO links (path, target) VALUES (?, ?)');
    const insertFts = db.prepare('INSERT INTO fts (path, keywords, title, gloss) VALUES (?, ?, ?, ?)');
    const drop = (path: string) => {
      db.prepare('DELETE FROM records WHERE path = ?').run(path);
      db.prepare('DELETE FROM links WHERE path = ?').run(path);
      db.prepare('DELETE FROM fts WHERE path = ?').run(path);
    };
    db.transaction(() => {
      for (const path of removed) drop(path);
      for (const file of changed) {
        if (known.has(file.path)) drop(file.path);
        const entry = readRecord(file);
        if (!entry) continue; // gone, or no longer a regular file: not a record
        if (entry.unrepresentable !== undefined) {
          // Kept (so it is not re-read on every call) but out of every query; lint reports it.
          insertRecord.run(
            entry.path,
            entry.store,
            file.absolute,
            entry.mtimeMs,
            entry.size,
            null,
            null,
            null,
            '',
            '{}',
            null,
            entry.errors.join('; '),
          );
          continue;
        }
        const row: RecordRow = {
          path: entry.path,
          store: entry.store,
          ...entry.fields,
          gloss: entry.gloss,
          errors: entry.errors,
        };
        insertRecord.run(
          entry.path,
          entry.store,
          file.absolute,
          entry.mtimeMs,
          entry.size,
          row.id ?? null,
          row.kind ?? null,
          row.project ?? null,
          row.gloss,
          JSON.stringify(row),
          // Failure-mode bodies are kept for --recall, so it never reads thousands of files.
          isFailureMode(row) ? entry.body : null,
          null,
        );
        for (const target of new Set(Object.values(row.links).flat())) insertLink.run(entry.path, target);
        insertFts.run(entry.path, row.keywords.join(' '), row.title ?? '', row.gloss);
      }
      if (dirs) {
        db.exec('DELETE FROM dirs');
        const insertDir = db.prepare('INSERT INTO dirs (path, mtime) VALUES (?, ?)');
        for (const dir of dirs) insertDir.run(dir, statSync(dir).mtimeMs);
      }
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('signature', signature);
    }).immediate();
  }

  /** Path and gloss only, for the survey: no per-row JSON when nothing else is printed. */
  survey(query: RecordQuery): { path: string; gloss: string }[] {
    if (query.project !== undefined)
      return this.query(query).map((row) => ({ path: row.path, gloss: row.gloss }));
    const { sql, params } = this.sql(query, 'r.path, r.gloss');
    if (!sql) return [];
    const rows = this.database
      .prepare(sql)
      .raw()
      .all(...params) as [string, string][];
    const limited = query.limit === undefined ? rows : rows.slice(0, query.limit);
    return limited.map(([path, gloss]) => ({ path, gloss }));
  }

  private sql(query: RecordQuery, columns: string): { sql?: string; params: unknown[] } {
    const where: string[] = ['r.skipped IS NULL'];
    const params: unknown[] = [];
    if (query.kind !== undefined) {
      where.push('r.kind = ?');
      params.push(query.kind);
    }
    if (query.id !== undefined) {
      where.push('r.id = ?');
      params.push(query.id);
    }
    if (query.linksTo !== undefined) {
      where.push('r.path IN (SELECT path FROM links WHERE target = ?)');
      params.push(query.linksTo);
    }
    let sql: string;
    if (query.keyword !== undefined) {
      const terms = [...new Set(tokenize(query.keyword))];
      if (terms.length === 0) return { params };
      // Weights: keywords 3, title 2, gloss 1 — the same as the scan's BM25.
      sql = `SELECT ${columns} FROM fts JOIN records r ON r.path = fts.path WHERE fts MATCH ? AND ${where.join(' AND ')} ORDER BY bm25(fts, 0, 3.0, 2.0, 1.0), r.path`;
      params.unshift(terms.map((term) => `"${term}"`).join(' OR '));
    } else {
      sql = `SELECT ${columns} FROM records r WHERE ${where.join(' AND ')} ORDER BY r.path`;
    }
    // The limit goes into SQL when nothing is filtered afterwards in JS.
    if (query.limit !== undefined && query.project === undefined) {
      sql += ' LIMIT ?';
      params.push(query.limit);
    }
    return { sql, params };
  }

  query(query: RecordQuery): RecordRow[] {
    const { sql, params } = this.sql(query, 'r.row');
    if (!sql) return [];
    let rows = (
      this.database
        .prepare(sql)
        .pluck()
        .all(...params) as string[]
    ).map((text) => JSON.parse(text) as RecordRow);
    if (query.project !== undefined)
      rows = rows.filter((row) => projectMatches(row.project, query.project as string));
    return query.limit === undefined ? rows : rows.slice(0, query.limit);
  }

  bodyOf(path: string): string {
    return (
      (this.database.prepare('SELECT body FROM records WHERE path = ?').pluck().get(path) as string | null) ??
      ''
    );
  }

  failureModes(): RecordRow[] {
    return (
      this.database
        .prepare(
          "SELECT row FROM records WHERE (store = ? OR kind = 'failure-mode') AND skipped IS NULL ORDER BY path",
        )
        .pluck()
        .all(FAILURE_STORE) as string[]
    ).map((text) => JSON.parse(text) as RecordRow);
  }

  paths(): Set<string> {
    return new Set(
      this.database.prepare('SELECT path FROM records WHERE skipped IS NULL').pluck().all() as string[],
    );
  }

  rows(): RecordRow[] {
    return (
      this.database
        .prepare('SELECT row FROM records WHERE skipped IS NULL ORDER BY path')
        .pluck()
        .all() as string[]
    ).map((text) => JSON.parse(text) as RecordRow);
  }

  skipped(): SkippedRecord[] {
    return this.database
      .prepare('SELECT path, skipped AS why FROM records WHERE skipped IS NOT NULL ORDER BY path')
      .all() as SkippedRecord[];
  }

  close(): void {
    this.database.close();
  }
}

/**
 * Makes the index folder, one level only (never `mkdir -p`, which spins forever on /proc).
 * The default `<root>/.tally` must be a real directory of this user, never a symlink; a
 * refusal is INDEX_UNAVAILABLE, and the caller falls back to a plain scan.
 */
function ensureIndexDir(dir: string, isStateDir: boolean): void {
  if (isStateDir) {
    const state = secureStateDir(dir, { create: true });
    if ('refused' in state)
      throw new RecordsUnavailableError('INDEX_UNAVAILABLE', `No on-disk index: ${state.why}`, { dir });
    return;
  }
  try {
    mkdirSync(dir);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EEXIST') return;
    if (typeof code === 'string')
      throw new RecordsUnavailableError(
        'INDEX_UNAVAILABLE',
        `No on-disk index: ${dir} cannot be made (${code}). Point TALLY_RECORDS_INDEX into an existing folder.`,
        { dir },
      );
    throw error;
  }
}

/** `<root>/.tally/records-index.db` unless TALLY_RECORDS_INDEX points elsewhere. */
export function defaultIndexPath(root: string, env: NodeJS.ProcessEnv = process.env): string {
  // The schema version is in the file name: a new layout never reads an old file.
  return env.TALLY_RECORDS_INDEX ?? join(root, '.tally', `records-index-v${VERSION}.db`);
}
