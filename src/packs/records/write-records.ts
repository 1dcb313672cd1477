import type { SqliteDatabase } from '../../core/sqlite/sqlite-database.js';
import { isFailureMode, type RecordRow, recallText } from './record-query.js';
import type { RecordEntry } from './scan-stores.js';

/**
 * Applies one refresh to the index tables, inside the caller's transaction, in as many calls
 * as the caller likes (a build streams its records through `write` a chunk at a time): drops
 * removed and changed paths, then inserts what was read (a path read as undefined is gone or
 * no longer a regular file, so it is not a record). Statements are prepared once per refresh.
 */
export function recordsWriter(db: SqliteDatabase): {
  remove(paths: string[]): void;
  write(changed: { path: string; entry: RecordEntry | undefined }[]): void;
} {
  // The FTS tables share the record's rowid: a drop is a rowid lookup, not a scan of an
  // UNINDEXED path column (two full scans per changed file at 50,000 records).
  const rowidOf = db.prepare('SELECT rowid FROM records WHERE path = ?').pluck();
  const dropByRowid = ['fts', 'recall_fts'].map((table) =>
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
    'INSERT OR REPLACE INTO records (path, store, id, kind, project, gloss, row, skipped) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
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
  const write = (changed: { path: string; entry: RecordEntry | undefined }[]) => {
    for (const { path, entry } of changed) {
      if (!empty) drop(path);
      if (!entry) continue;
      if (entry.unrepresentable !== undefined) {
        // Kept (so it is not re-read on every call) but out of every query; lint reports it.
        insertRecord.run(entry.path, entry.store, null, null, null, '', '{}', entry.errors.join('; '));
        continue;
      }
      const row: RecordRow = {
        path: entry.path,
        store: entry.store,
        ...entry.fields,
        gloss: entry.gloss,
        errors: entry.errors,
      };
      const { lastInsertRowid: rowid } = insertRecord.run(
        entry.path,
        entry.store,
        row.id ?? null,
        row.kind ?? null,
        row.project ?? null,
        row.gloss,
        JSON.stringify(row),
        null,
      );
      for (const target of new Set(Object.values(row.links).flat())) insertLink.run(entry.path, target);
      insertFts.run(rowid, entry.path, row.keywords.join(' '), row.title ?? '', row.gloss);
      // Failure-mode text (keywords, title, body) is kept for --recall, so it never reads
      // thousands of files.
      if (isFailureMode(row)) insertRecall.run(rowid, entry.path, recallText(row, entry.body));
    }
  };
  return { remove, write };
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
