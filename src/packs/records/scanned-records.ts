import { rankBm25 } from './bm25.js';
import {
  isFailureMode,
  projectMatches,
  type RecordQuery,
  type RecordRow,
  type RecordSource,
  recallText,
} from './record-query.js';
import { listRecordFiles, type RecordEntry, readRecord } from './scan-stores.js';
import type { StoreInfo } from './stores.js';

export function toRow(entry: RecordEntry): RecordRow {
  return { path: entry.path, store: entry.store, ...entry.fields, gloss: entry.gloss, errors: entry.errors };
}

export function keywordFields(row: RecordRow) {
  return [
    { text: row.keywords.join(' '), weight: 3 },
    { text: row.title ?? '', weight: 2 },
    { text: row.gloss, weight: 1 },
  ];
}

export function filterRows(rows: RecordRow[], query: RecordQuery): RecordRow[] {
  return rows.filter(
    (row) =>
      (query.kind === undefined || row.kind === query.kind) &&
      (query.id === undefined || row.id === query.id) &&
      (query.linksTo === undefined ||
        Object.values(row.links).some((ids) => ids.includes(query.linksTo as string))) &&
      (query.project === undefined || projectMatches(row.project, query.project)),
  );
}

/** A plain scan: read every record on every call. The baseline, and the fallback. */
export function scanRecords(root: string, stores: StoreInfo[]): RecordSource {
  const read = listRecordFiles(root, stores)
    .files.map((file) => readRecord(file))
    .filter((entry): entry is RecordEntry => entry !== undefined);
  const entries = read.filter((entry) => entry.unrepresentable === undefined);
  const skipped = read.flatMap((entry) =>
    entry.unrepresentable === undefined ? [] : [{ path: entry.path, why: entry.errors.join('; ') }],
  );
  const rows = entries.map(toRow);
  const bodies = new Map(entries.map((entry) => [entry.path, entry.body]));
  const source: RecordSource = {
    survey: (query) => source.query(query).map((row) => ({ path: row.path, gloss: row.gloss })),
    query: (query) => {
      let result = filterRows(rows, query);
      if (query.keyword !== undefined) {
        const byPath = new Map(result.map((row) => [row.path, row]));
        result = rankBm25(
          result.map((row) => ({ key: row.path, fields: keywordFields(row) })),
          query.keyword,
        ).map((hit) => byPath.get(hit.key) as RecordRow);
      } else {
        result = [...result].sort((a, b) => a.path.localeCompare(b.path));
      }
      return query.limit === undefined ? result : result.slice(0, query.limit);
    },
    paths: () => new Set(rows.map((row) => row.path)),
    recallCandidates: () =>
      rows.filter(isFailureMode).map((row) => ({
        path: row.path,
        gloss: row.gloss,
        text: recallText(row, bodies.get(row.path) ?? ''),
      })),
    rows: () => rows,
    skipped: () => skipped,
    close: () => {},
  };
  return source;
}
