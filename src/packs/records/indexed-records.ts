import { existsSync, rmSync, statSync } from 'node:fs';
import { openSqlite } from '../../core/sqlite/open-sqlite.js';
import type { SqliteDatabase, SqliteStatement } from '../../core/sqlite/sqlite-database.js';
import { tokenize } from './bm25.js';
import {
  changesSince,
  type FileCheck,
  type PackedSnapshot,
  packSnapshot,
  unpackSnapshot,
} from './index-snapshot.js';
import {
  absoluteOf,
  listRecordDirs,
  type RecordDirEntry,
  type RecordFileEntry,
  recordPathOf,
} from './list-record-dirs.js';
import { readRecordsInChunks } from './read-records-parallel.js';
import {
  FAILURE_STORE,
  type RecallCandidate,
  type RecordQuery,
  type RecordRow,
  type RecordSource,
  type SkippedRecord,
} from './record-query.js';
import {
  ensureRecordsIndexDir,
  INDEX_VERSION,
  type RecordsIndexLocation,
  recordsIndexPath,
  removeOlderIndexes,
} from './records-index-path.js';
import { readRecord, type ScannedFile } from './scan-stores.js';
import type { StoreInfo } from './stores.js';
import { type PreparedRecord, recallMatchQuery, recordsWriter } from './write-records.js';

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS snapshot (id INTEGER PRIMARY KEY CHECK (id = 0), names BLOB NOT NULL, numbers BLOB NOT NULL)',
  // `rid` is the rowid the FTS rows share; an INTEGER PRIMARY KEY, so no VACUUM renumbers it.
  // Only what a query filters and orders on: narrow rows, so a keyword query's lookup of each
  // hit's path reads few pages (at 500,000 records: 79 MB instead of 276 MB with the JSON).
  `CREATE TABLE IF NOT EXISTS records (rid INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, store TEXT NOT NULL,
     id TEXT, kind TEXT, project TEXT, gloss TEXT NOT NULL, skipped TEXT)`,
  // The RecordRow as JSON, what a query prints: fetched for the rows answered, after the limit.
  'CREATE TABLE IF NOT EXISTS record_rows (rid INTEGER PRIMARY KEY, row TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS links (path TEXT NOT NULL, target TEXT NOT NULL)',
  "CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(path UNINDEXED, keywords, title, gloss, tokenize = 'unicode61 remove_diacritics 2')",
  // Failure-mode text (keywords, title, body) for --recall: a MATCH narrows the rows it scores.
  "CREATE VIRTUAL TABLE IF NOT EXISTS recall_fts USING fts5(path UNINDEXED, text, tokenize = 'unicode61 remove_diacritics 2')",
];
/**
 * The secondary indexes, made by every write (IF NOT EXISTS: a no-op when they are there). A
 * full build drops them first and makes them after its inserts, in the same transaction: one
 * sort per index instead of a b-tree insert per row (~15% of the SQLite time of a build).
 */
const INDEXES: [name: string, on: string][] = [
  // By kind, then path: a --kind query walks its rows in answer order and stops at the limit
  // (no sort of every record of that kind: 30 ms → 0.1 ms for 20 of 91,000 failure modes).
  ['records_kind', 'records (kind, path)'],
  ['records_id', 'records (id)'],
  ['links_path', 'links (path)'],
  ['links_target', 'links (target)'],
];
/** A keyword hit's rank. Weights: keywords 3, title 2, gloss 1 — the same as the scan's BM25. */
const BM25 = 'bm25(fts, 0, 3.0, 2.0, 1.0)';
const SCHEMA_VERSION = Number(INDEX_VERSION);
/** Records read and written per step of a build: what a build holds in memory at once. */
const WRITE_CHUNK = 500;

/**
 * How much of the disk a call checks before it answers. A directory is checked by its mtime
 * and ctime (an add, a removal, a rename or an atomic save changes both; a put-back mtime
 * still moves the ctime), a file by its mtime, size and ctime (an in-place edit moves the
 * ctime even when the size stays and `touch -d` puts the mtime back).
 * - `files` (the default): every directory and every record file.
 * - `failure-modes` (--recall): every directory, and only the files --recall ranks — every file
 *   of the failure-mode store and every record indexed as `kind: failure-mode`. Not seen until
 *   the next full check: an in-place edit that turns a record of another store INTO a failure mode.
 * - `{ paths }` (--cat): only the named records and the directories above them (a new file or
 *   folder on the way to a named path changes one of them); --cat reads the records from disk
 *   anyway, so its answer is as fresh as with `files`.
 * - `dirs`: every directory, no file (TALLY_RECORDS_INDEX_CHECK=dirs): blind to in-place edits.
 * What a partial check skips keeps its old numbers in the snapshot, so the next full check
 * still sees its change.
 */
export type RecordsCheck = 'files' | 'dirs' | 'failure-modes' | { paths: string[] };

/** What the snapshot was taken of: a snapshot of another root or store set is not compared. */
export function indexSignature(root: string, stores: StoreInfo[]): string {
  return JSON.stringify({ INDEX_VERSION, root, stores: stores.map((store) => [store.store, store.exists]) });
}

/**
 * Every failure-mode record's recall text as of one state of the tables, for
 * a source asked again and again (a resident server, the MCP server): --recall then fetches
 * only the matching rowids (an FTS MATCH) instead of each match's ~350-character text, and
 * picks the rows from here (13–30 ms → ~3 ms of CPU for a 50,000-record recall, in process).
 */
interface RecallTexts {
  /** The tables' state it was read at (recallState): any write since makes it stale. */
  state: string;
  /** Every failure-mode record, in no particular order (recall ranks them). */
  all: RecallCandidate[];
  /** The same, by rowid: a MATCH's rowids pick their rows without a pass over all of them. */
  byRowid: Map<number, RecallCandidate>;
}

/**
 * The on-disk index (SQLite + FTS5, BM25 ranking), in the user's cache folder, never in the
 * records folder. Every call checks it against the stores: a changed directory (a file added,
 * removed, renamed or saved atomically) re-lists files; a changed file mtime or size (an
 * in-place edit) re-reads that file. Nothing stale answers.
 */
export class IndexedRecords implements RecordSource {
  private readonly statements = new Map<string, SqliteStatement>();
  /** Bumped by every write through this connection (applyDelta): part of recallState. */
  private writes = 0;
  /** The state the last recallCandidates call saw, and the texts kept from a second call at it. */
  private readonly recall: { lastState?: string; texts?: RecallTexts } = {};
  /** `file`: the index's path (the sweep's worker opens it read-only for the snapshot). */
  private constructor(
    private readonly database: SqliteDatabase,
    readonly file: string,
  ) {}

  /**
   * `check`: which files are `stat`ed before the answer (see RecordsCheck); `files` by default.
   */
  static open(
    root: string,
    stores: StoreInfo[],
    where?: string | RecordsIndexLocation,
    check: RecordsCheck = 'files',
  ): IndexedRecords {
    const location =
      where === undefined ? recordsIndexPath(root) : typeof where === 'string' ? { path: where } : where;
    ensureRecordsIndexDir(location);
    if (location.cacheDir && !existsSync(location.path)) removeOlderIndexes(location);
    // A rollback journal, not WAL: a warm query opens, reads and closes, and closing a WAL
    // database checkpoints and deletes two side files (~10 ms of every call).
    try {
      return IndexedRecords.openAt(location.path, root, stores, check);
    } catch (error) {
      // A damaged cache (a power loss with no fsync) is thrown away and rebuilt, once. A file
      // the user named is never deleted: that error falls back to a scan, and says so.
      const damaged = /^SQLITE_(CORRUPT|NOTADB)/.test(String((error as { code?: unknown }).code));
      if (!damaged || !location.cacheDir) throw error;
      rmSync(location.path, { force: true });
      rmSync(`${location.path}-journal`, { force: true });
      return IndexedRecords.openAt(location.path, root, stores, check);
    }
  }

  private static openAt(
    path: string,
    root: string,
    stores: StoreInfo[],
    check: RecordsCheck,
  ): IndexedRecords {
    const database = openSqlite(path, { timeout: 10_000 });
    try {
      // A cache, rebuilt from the records at will: no fsync per commit (a killed process still
      // leaves old-or-new through the journal; a power loss costs at most a rebuild).
      database.pragma('synchronous = OFF');
      if (database.pragma('user_version', { simple: true }) !== SCHEMA_VERSION)
        database.transaction(() => {
          for (const statement of SCHEMA) database.exec(statement);
          database.pragma(`user_version = ${SCHEMA_VERSION}`);
        })();
      const index = new IndexedRecords(database, path);
      index.refresh(root, stores, check);
      return index;
    } catch (error) {
      database.close();
      throw error;
    }
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private refresh(root: string, stores: StoreInfo[], check: RecordsCheck): void {
    const db = this.database;
    const signature = indexSignature(root, stores);
    const fresh = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get('signature') === signature;
    const packed = fresh
      ? (db.prepare('SELECT names, numbers FROM snapshot WHERE id = 0').get() as PackedSnapshot | undefined)
      : undefined;
    const changes = packed ? changesSince(packed, this.fileCheck(check)) : 'relist';
    if (changes !== 'relist' && changes.length === 0) return;
    const previous = packed ? unpackSnapshot(packed) : [];
    let dirs: RecordDirEntry[];
    let changed: ScannedFile[];
    /** After a relist: the listed entry of each of `changed`, same order, to record its stats in. */
    let listedOf: RecordFileEntry[] | undefined;
    let removed: string[] = [];
    if (changes === 'relist') {
      // Files kept from the last snapshot are re-read only when their mtime or size moved.
      const known = new Map<string, { mtimeMs: number; size: number; ctimeMs: number }>();
      for (const dir of previous) for (const file of dir.files) known.set(recordPathOf(dir, file.name), file);
      dirs = listRecordDirs(root, stores);
      changed = [];
      listedOf = [];
      const listed = new Set<string>();
      for (const dir of dirs) {
        for (const file of dir.files) {
          const path = recordPathOf(dir, file.name);
          // Only to find what was removed: nothing was known before a first build.
          if (known.size > 0) listed.add(path);
          const before = known.get(path);
          const stats = before && statOrUndefined(absoluteOf(dir, file.name));
          if (
            before &&
            stats &&
            stats.mtimeMs === before.mtimeMs &&
            stats.size === before.size &&
            stats.ctimeMs === before.ctimeMs
          ) {
            file.mtimeMs = before.mtimeMs;
            file.size = before.size;
            file.ctimeMs = before.ctimeMs;
          } else {
            changed.push({ path, store: dir.store, absolute: absoluteOf(dir, file.name) });
            listedOf.push(file);
          }
        }
      }
      removed = [...known.keys()].filter((path) => !listed.has(path));
    } else {
      dirs = previous;
      changed = changes;
    }
    db.transaction(() => {
      // No snapshot, or one of another root or store set: nothing in the tables can be kept.
      if (!packed) {
        for (const table of ['records', 'record_rows', 'links', 'fts', 'recall_fts'])
          db.exec(`DELETE FROM ${table}`);
        for (const [name] of INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`);
      }
      const writer = recordsWriter(db);
      writer.remove(removed);
      // Streamed: a chunk of records is read, written and let go, so a build holds a few
      // chunks' bodies in memory, not the corpus's (500,000 records); only each file's stats
      // are kept. A large build reads with a worker thread beside this one (read-records-parallel.ts).
      // Record the stats of what was read; a file gone or no longer regular since it was listed
      // is not a record: out of the snapshot, so it is looked at again only when its folder
      // changes. After a relist the stats go straight into the listed entries (no path
      // rebuilt and looked up per file: ~5 ms of a 2,000-record build); else by path.
      const read = new Map<string, { mtimeMs: number; size: number; ctimeMs: number } | undefined>();
      const goneListed = new Set<RecordFileEntry>();
      let offset = 0;
      readRecordsInChunks(changed, ({ files, records }) => {
        const prepared: PreparedRecord[] = [];
        const gone: string[] = [];
        for (let index = 0; index < files.length; index++) {
          const path = (files[index] as ScannedFile).path;
          const record = records[index];
          const listed = listedOf?.[offset + index];
          if (record) {
            prepared.push(record);
            if (listed) {
              listed.mtimeMs = record.mtimeMs;
              listed.size = record.size;
              listed.ctimeMs = record.ctimeMs;
            } else read.set(path, { mtimeMs: record.mtimeMs, size: record.size, ctimeMs: record.ctimeMs });
          } else {
            gone.push(path);
            if (listed) goneListed.add(listed);
            else read.set(path, undefined);
          }
        }
        offset += files.length;
        writer.remove(gone);
        writer.insert(prepared);
      });
      if (read.size > 0 || goneListed.size > 0)
        for (const dir of dirs) {
          dir.files = dir.files.filter((file) => {
            if (goneListed.has(file)) return false;
            const path = recordPathOf(dir, file.name);
            if (!read.has(path)) return true;
            const stats = read.get(path);
            if (!stats) return false;
            file.mtimeMs = stats.mtimeMs;
            file.size = stats.size;
            file.ctimeMs = stats.ctimeMs;
            return true;
          });
        }
      for (const [name, on] of INDEXES) db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${on}`);
      const snapshot = packSnapshot(dirs);
      db.prepare('INSERT OR REPLACE INTO snapshot (id, names, numbers) VALUES (0, ?, ?)').run(
        snapshot.names,
        snapshot.numbers,
      );
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('signature', signature);
    }).immediate();
  }

  /**
   * Brings the tables up to date with a watcher's delta (record-delta.ts) without the check
   * of every file: drops `removed` (gone, or no longer regular files: never opened) and the
   * records under `removedPrefixes`, then reads `read` again (a path gone or no longer a
   * regular file by then drops its record). The snapshot is left as it was: what
   * the delta changed differs from it, so the next full check (the sweep, a one-shot query)
   * looks at exactly those files and folders again and finds the tables already right.
   */
  applyDelta(read: ScannedFile[], removed: string[], removedPrefixes: string[]): void {
    const db = this.database;
    const under = db.prepare('SELECT path FROM records WHERE path >= ? AND path < ?').pluck();
    // Before the write: kept recall texts are stale even if the transaction fails half-way.
    this.writes += 1;
    db.transaction(() => {
      const writer = recordsWriter(db);
      writer.remove(removed);
      // '' is the root itself (a store that is the root): every record. Else the paths
      // between `prefix/` and `prefix0` ('0' follows '/'): those under the folder.
      for (const prefix of removedPrefixes)
        writer.remove(
          (prefix === ''
            ? db.prepare('SELECT path FROM records').pluck().all()
            : under.all(`${prefix}/`, `${prefix}0`)) as string[],
        );
      for (let start = 0; start < read.length; start += WRITE_CHUNK)
        writer.write(
          read
            .slice(start, start + WRITE_CHUNK)
            .map((file) => ({ path: file.path, entry: readRecord(file) })),
        );
    }).immediate();
  }

  private fileCheck(check: RecordsCheck): FileCheck {
    if (check === 'files' || check === 'dirs') return check;
    if (check === 'failure-modes') {
      // Failure modes outside their store, by the kind the index holds (records_kind index).
      const elsewhere = new Set(
        this.database
          .prepare("SELECT path FROM records WHERE kind = 'failure-mode' AND store != ?")
          .pluck()
          .all(FAILURE_STORE) as string[],
      );
      return { stores: new Set([FAILURE_STORE]), paths: elsewhere, everyDir: true };
    }
    return { stores: new Set(), paths: new Set(check.paths), everyDir: false };
  }

  /** Which of `paths` a query can return: --cat's membership check without listing them all. */
  pathsAmong(paths: string[]): Set<string> {
    const lookup = this.statement('SELECT 1 FROM records WHERE path = ? AND skipped IS NULL').pluck();
    return new Set(paths.filter((path) => lookup.get(path) !== undefined));
  }

  /** Path and gloss only, for the survey: no per-row JSON when nothing else is printed. */
  survey(query: RecordQuery): { path: string; gloss: string }[] {
    const { sql, params } = this.sql(query, 'r.path, r.gloss');
    if (!sql) return [];
    const rows = this.database
      .prepare(sql)
      .raw()
      .all(...params) as [string, string][];
    return rows.map(([path, gloss]) => ({ path, gloss }));
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
    if (query.project !== undefined) {
      // `projectMatches` in SQL, so the limit goes into SQL too: the same project, or either
      // side's repo part (`acme/shop` and `shop` match each other).
      const wanted = query.project;
      where.push(
        "(r.project IS NOT NULL AND r.project != '' AND (r.project = ? OR r.project = ? OR (instr(?, '/') = 0 AND substr(r.project, -(length(?) + 1)) = '/' || ?)))",
      );
      params.push(wanted, wanted.split('/').at(-1) as string, wanted, wanted, wanted);
    }
    let sql: string;
    if (query.keyword !== undefined) {
      const terms = [...new Set(tokenize(query.keyword))];
      if (terms.length === 0) return { params };
      sql = `SELECT ${columns} FROM fts JOIN records r ON r.rowid = fts.rowid WHERE fts MATCH ? AND ${where.join(' AND ')} ORDER BY ${BM25}, r.path`;
      params.unshift(terms.map((term) => `"${term}"`).join(' OR '));
    } else {
      sql = `SELECT ${columns} FROM records r WHERE ${where.join(' AND ')} ORDER BY r.path`;
    }
    if (query.limit !== undefined) {
      sql += ' LIMIT ?';
      params.push(query.limit);
    }
    return { sql, params };
  }

  query(query: RecordQuery): RecordRow[] {
    // The hits are ranked and cut to the limit by rid and sort keys; only the rows answered
    // fetch their JSON (record_rows), so a sort never carries the JSON of every hit.
    const keyword = query.keyword !== undefined;
    const { sql, params } = this.sql(
      query,
      keyword ? `r.rid AS rid, ${BM25} AS s, r.path AS p` : 'r.rid AS rid, r.path AS p',
    );
    if (!sql) return [];
    const rows = `SELECT w.row FROM (${sql}) f JOIN record_rows w ON w.rid = f.rid ORDER BY ${keyword ? 'f.s, ' : ''}f.p`;
    return (
      this.statement(rows)
        .pluck()
        .all(...params) as string[]
    ).map((text) => JSON.parse(text) as RecordRow);
  }

  /**
   * Path, gloss and the stored recall text of the failure-mode records; with `terms`, only
   * those whose text may hold one of them (an FTS MATCH, a superset of recall's whole-word
   * match), so --recall scores a few rows, not all. No JSON row parsed, no body fetched.
   * Called a second time with the tables unchanged (a long-lived source), it keeps every
   * failure-mode text in memory (RecallTexts) and answers from there until the next write.
   * The rows returned are shared with later calls: callers read them, never change them.
   * Their order is not part of the answer: recall ranks them.
   */
  recallCandidates(terms?: string): RecallCandidate[] {
    const match = terms === undefined ? undefined : recallMatchQuery(terms);
    const state = this.recallState();
    const memo = this.recall;
    if (memo.texts?.state !== state && memo.lastState === state) memo.texts = this.recallTexts(state);
    memo.lastState = state;
    const texts = memo.texts?.state === state ? memo.texts : undefined;
    if (texts) {
      if (match === undefined) return texts.all;
      // The same rows as the MATCH joined below.
      const candidates: RecallCandidate[] = [];
      for (const rowid of this.statement('SELECT rowid FROM recall_fts WHERE recall_fts MATCH ?')
        .pluck()
        .all(match) as number[]) {
        const candidate = texts.byRowid.get(rowid);
        if (candidate) candidates.push(candidate);
      }
      return candidates;
    }
    const rows = (
      match === undefined
        ? this.statement(
            'SELECT r.path, r.gloss, t.text FROM recall_fts t JOIN records r ON r.rowid = t.rowid WHERE r.skipped IS NULL',
          )
            .raw()
            .all()
        : this.statement(
            'SELECT r.path, r.gloss, t.text FROM recall_fts t JOIN records r ON r.rowid = t.rowid WHERE recall_fts MATCH ? AND r.skipped IS NULL',
          )
            .raw()
            .all(match)
    ) as [string, string, string][];
    return rows.map(([path, gloss, text]) => ({ path, gloss, text }));
  }

  /**
   * The tables' state for kept recall texts: this connection's writes, and SQLite's
   * data_version, which changes when another connection (a one-shot query) commits.
   */
  private recallState(): string {
    return `${this.writes}:${this.database.pragma('data_version', { simple: true })}`;
  }

  private recallTexts(state: string): RecallTexts {
    const rows = this.statement(
      'SELECT t.rowid, r.path, r.gloss, t.text FROM recall_fts t JOIN records r ON r.rowid = t.rowid WHERE r.skipped IS NULL',
    )
      .raw()
      .all() as [number, string, string, string][];
    const all: RecallCandidate[] = [];
    const byRowid = new Map<number, RecallCandidate>();
    for (const [rowid, path, gloss, text] of rows) {
      const candidate = { path, gloss, text };
      all.push(candidate);
      byRowid.set(rowid, candidate);
    }
    return { state, all, byRowid };
  }

  paths(): Set<string> {
    return new Set(
      this.database.prepare('SELECT path FROM records WHERE skipped IS NULL').pluck().all() as string[],
    );
  }

  rows(): RecordRow[] {
    return (
      this.database
        .prepare(
          'SELECT w.row FROM records r JOIN record_rows w ON w.rid = r.rid WHERE r.skipped IS NULL ORDER BY r.path',
        )
        .pluck()
        .all() as string[]
    ).map((text) => JSON.parse(text) as RecordRow);
  }

  /** Every directory the snapshot covers, with its store and prefix: what a watcher watches and a delta places paths in. */
  folders(): Map<string, { store: string; prefix: string }> {
    const packed = this.database.prepare('SELECT names, numbers FROM snapshot WHERE id = 0').get() as
      | PackedSnapshot
      | undefined;
    return new Map(
      (packed ? unpackSnapshot(packed) : []).map((dir) => [
        dir.dir,
        { store: dir.store, prefix: dir.prefix },
      ]),
    );
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

/** Where the index of `root` lives (see `recordsIndexPath`): kept for callers of the old name. */
export function defaultIndexPath(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return recordsIndexPath(root, env).path;
}

function statOrUndefined(path: string): { mtimeMs: number; size: number; ctimeMs: number } | undefined {
  return statSync(path, { throwIfNoEntry: false });
}
