import type { RecordSource } from '../../packs/records/record-query.js';

/**
 * Records reachable by a link from a returned record that no query returned — a retrieval bug,
 * each with the query that should have matched it.
 */
export function findUnreachable(source: RecordSource, returnedPaths: string[]): string[] {
  const returned = new Set(returnedPaths);
  const rows = source.rows();
  const unreachable: string[] = [];
  for (const path of returnedPaths) {
    const row = rows.find((candidate) => candidate.path === path);
    for (const [store, ids] of Object.entries(row?.links ?? {})) {
      for (const id of ids) {
        const target = rows.find((candidate) => candidate.id === id);
        if (
          target &&
          !returned.has(target.path) &&
          !unreachable.some((line) => line.startsWith(target.path))
        ) {
          unreachable.push(
            `${target.path} (linked from ${path} as ${store}/${id}) — should have matched: records query --keyword "${target.keywords.join(' ')}"`,
          );
        }
      }
    }
  }
  return unreachable;
}
