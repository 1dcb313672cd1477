import type { RecordRow, SkippedRecord } from './record-query.js';

export interface LintProblem {
  path: string;
  problem: string;
}

const REQUIRED = ['id', 'kind', 'date', 'status'] as const;

/** Resolves a `links` key (`decisions`, `references/decisions`) to a store. */
function storeFor(key: string, stores: string[]): string | undefined {
  return stores.find((store) => store === key || store.split('/').at(-1) === key);
}

/**
 * Required keys, non-empty keywords, unique ids, links that resolve — and every record that
 * queries skip because its frontmatter cannot be represented, with why.
 */
export function lintRecords(
  rows: RecordRow[],
  stores: string[],
  skipped: SkippedRecord[] = [],
): LintProblem[] {
  const problems: LintProblem[] = skipped.map((record) => ({ path: record.path, problem: record.why }));
  const idsByStore = new Map<string, Set<string>>();
  const firstPathOfId = new Map<string, string>();
  for (const row of rows) {
    for (const error of row.errors) problems.push({ path: row.path, problem: error });
    for (const key of REQUIRED)
      if (!row[key]) problems.push({ path: row.path, problem: `missing required key "${key}"` });
    if (row.keywords.length === 0)
      problems.push({ path: row.path, problem: 'keywords is empty: add at least one' });
    if (row.id) {
      const first = firstPathOfId.get(row.id);
      if (first) problems.push({ path: row.path, problem: `duplicate id "${row.id}" (also in ${first})` });
      else firstPathOfId.set(row.id, row.path);
      const set = idsByStore.get(row.store) ?? new Set<string>();
      set.add(row.id);
      idsByStore.set(row.store, set);
    }
  }
  for (const row of rows) {
    for (const [key, ids] of Object.entries(row.links)) {
      const store = storeFor(key, stores);
      if (!store) {
        problems.push({ path: row.path, problem: `links names an unknown store "${key}"` });
        continue;
      }
      for (const id of ids)
        if (!idsByStore.get(store)?.has(id))
          problems.push({ path: row.path, problem: `link ${key}/${id} does not resolve to a record` });
    }
  }
  return problems.sort((a, b) => a.path.localeCompare(b.path) || a.problem.localeCompare(b.problem));
}
