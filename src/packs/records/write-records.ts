import type { SqliteDatabase } from '../../core/sqlite/sqlite-database.js';
import { isFailureMode, type RecordRow, recallText } from './record-query.js';
import type { RecordEntry } from './scan-stores.js';

/**
 * One record as the index stores it: every column and FTS text, computed from what was read.
 * Plain strings and numbers, so a reading worker can build it and post it (structured clone).
 */
export interface PreparedRecord {
  path: string;
  store: string;
  /** Set when the frontmatter cannot be represented: the row is kept out of every query. */
  skipped?: string;
  id: string | null;
  kind: string | null;
  project: string | null;
  gloss: string;
  /** The RecordRow as JSON: what a query prints. */
  row: string;
  /** Link targets, each once. */
  links: string[];
  keywords: string;
  title: string;
  /** The failure-mode text --recall scores (keywords, title, body); undefined for other records. */
  recall?: string;
  mtimeMs: number;
  size: number;
  ctimeMs: number;
}

/** What `entry` becomes in the index: a pure function of the record read. */
export function preparedRecordOf(entry: RecordEntry): PreparedRecord {
  // Built field by field, without spreads: a first query runs this cold for every record.
  const prepared: PreparedRecord = {
    path: entry.path,
    store: entry.store,
    id: null,
    kind: null,
    project: null,
    gloss: '',
    row: '{}',
    links: [],
    keywords: '',
    title: '',
    mtimeMs: entry.mtimeMs,
    size: entry.size,
    ctimeMs: entry.ctimeMs,
  };
  if (entry.unrepresentable !== undefined) {
    prepared.skipped = entry.errors.join('; ');
    return prepared;
  }
  const row: RecordRow = {
    path: entry.path,
    store: entry.store,
    ...entry.fields,
    gloss: entry.gloss,
    errors: entry.errors,
  };
  prepared.id = row.id ?? null;
  prepared.kind = row.kind ?? null;
  prepared.project = row.project ?? null;
  prepared.gloss = row.gloss;
  prepared.row = JSON.stringify(row);
  const targets = new Set<string>();
  // Own keys only, as Object.values gave (never what a `__proto__` link key may have set).
  // Indexed loops: cold code allocates an iterator result per for-of step.
  const stores = Object.keys(row.links);
  for (let store = 0; store < stores.length; store++) {
    const list = row.links[stores[store] as string] as string[];
    for (let index = 0; index < list.length; index++) targets.add(list[index] as string);
  }
  prepared.links = [...targets];
  prepared.keywords = row.keywords.join(' ');
  prepared.title = row.title ?? '';
  // Failure-mode text (keywords, title, body) is kept for --recall, so it never reads
  // thousands of files.
  if (isFailureMode(row)) prepared.recall = recallText(row, entry.body);
  return prepared;
}

/**
 * Applies one refresh to the index tables, inside the caller's transaction, in as many calls
 * as the caller likes (a build streams its records through `write` a chunk at a time): drops
 * removed and changed paths, then inserts what was read (a path read as undefined is gone or
 * no longer a regular file, so it is not a record). Statements are prepared once per refresh.
 */
export function recordsWriter(db: SqliteDatabase): {
  remove(paths: string[]): void;
  write(changed: { path: string; entry: RecordEntry | undefined }[]): void;
  /** Inserts records already prepared (preparedRecordOf, maybe in a reading worker). */
  insert(prepared: PreparedRecord[]): void;
} {
  // The FTS tables share the record's rowid: a drop is a rowid lookup, not a scan of an
  // UNINDEXED path column (two full scans per changed file at 50,000 records).
  const rowidOf = db.prepare('SELECT rowid FROM records WHERE path = ?').pluck();
  const dropByRowid = ['record_rows', 'fts', 'recall_fts'].map((table) =>
    db.prepare(`DELETE FROM ${table} WHERE rowid = ?`),
  );
  const dropByPath = ['records', 'links'].map((table) => db.prepare(`DELETE FROM ${table} WHERE path = ?`));
  const drop = (path: string) => {
    const rowid = rowidOf.get(path);
    if (rowid === undefined) return;
    for (const statement of dropByRowid) statement.run(rowid);
    for (const statement of dropByPath) statement.run(path);
  };
  const insertRecord = db.prepare(
    'INSERT OR REPLACE INTO records (path, store, id, kind, project, gloss, skipped) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertRow = db.prepare('INSERT INTO record_rows (rid, row) VALUES (?, ?)');
  const insertLink = db.prepare('INSERT INTO links (path, target) VALUES (?, ?)');
  const insertFts = db.prepare(
    'INSERT INTO fts (rowid, path, keywords, title, gloss) VALUES (?, ?, ?, ?, ?)',
  );
  const insertRecall = db.prepare('INSERT INTO recall_fts (rowid, path, text) VALUES (?, ?, ?)');
  // An empty index (the first query) has nothing to drop: skip four lookups per record.
  const empty = db.prepare('SELECT 1 FROM records LIMIT 1').get() === undefined;
  const remove = (paths: string[]) => {
    for (const path of paths) drop(path);
  };
  const insert = (prepared: PreparedRecord[]) => {
    for (let index = 0; index < prepared.length; index++) {
      const record = prepared[index] as PreparedRecord;
      if (!empty) drop(record.path);
      if (record.skipped !== undefined) {
        // Kept (so it is not re-read on every call) but out of every query; lint reports it.
        insertRecord.run(record.path, record.store, null, null, null, '', record.skipped);
        continue;
      }
      const { lastInsertRowid: rowid } = insertRecord.run(
        record.path,
        record.store,
        record.id,
        record.kind,
        record.project,
        record.gloss,
        null,
      );
      insertRow.run(rowid, record.row);
      const links = record.links;
      for (let link = 0; link < links.length; link++) insertLink.run(record.path, links[link]);
      insertFts.run(rowid, record.path, record.keywords, record.title, record.gloss);
      if (record.recall !== undefined) insertRecall.run(rowid, record.path, record.recall);
    }
  };
  const write = (changed: { path: string; entry: RecordEntry | undefined }[]) => {
    const prepared: PreparedRecord[] = [];
    for (const { path, entry } of changed) {
      if (entry) prepared.push(preparedRecordOf(entry));
      else if (!empty) drop(path);
    }
    insert(prepared);
  };
  return { remove, write, insert };
}

/**
 * The FTS5 query that finds every failure-mode record recall's whole-word patterns can match:
 * each term a quoted phrase (`a-b` → "a b"), OR-ed. FTS tokenizes the phrase as it tokenized
 * the text, so it matches at least what the pattern does. Undefined (score every row) when a
 * term has no letter or digit for FTS to look for.
 */
export function recallMatchQuery(terms: string): string | undefined {
  const phrases = terms
    .split(/\s+/)
    .filter(Boolean)
    .map((term) => term.split('-').filter(Boolean).join(' '));
  if (phrases.length === 0 || phrases.some((phrase) => !/[\p{L}\p{N}]/u.test(phrase))) return undefined;
  return phrases.map((phrase) => `"${phrase.replace(/"/g, '""')}"`).join(' OR ');
}
