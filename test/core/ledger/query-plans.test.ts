import { describe, expect, it } from 'vitest';
import { CHAT_TURN_SQL } from '../../../src/agents/coder/chat-turn-stats.js';
import { LIST_RUNS_SQL } from '../../../src/core/ledger/ledger.js';
import { COUNT_SQL } from '../../../src/core/ledger/ledger-counts.js';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { tempLedger } from '../../helpers.js';

/**
 * The plans that keep `tally runs` and `tally stats` fast at a million entries (issue 21): SQLite
 * has no statistics here (no ANALYZE), so its plans depend on the schema and the SQL alone, the
 * same on a small ledger as on a big one.
 */
function planOf(path: string, sql: string): string[] {
  const database = openSqlite(path, { readonly: true });
  try {
    const params = { since: '2000-01-01T00:00:00.000Z', agent: null, limit: 20 };
    return (database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map(
      (row) => row.detail,
    );
  } finally {
    database.close();
  }
}

// What the queries may walk whole: the runs table (20k rows at 1M entries), and the small
// intermediate results they build (the CTE of chat runs, the co-routine of listed runs).
const MAY_SCAN = /^SCAN (runs|r|chat)\b/;

function ledgerWithRuns(): string {
  const ledger = tempLedger();
  for (let index = 0; index < 5; index++) {
    const run = ledger.startRun({ agent: 'a', task: `t${index}`, meta: { chatId: 'c1' } });
    run.append({ kind: 'tool_call', name: 'fs_tree', outcome: 'rejected', data: { error: { code: 'X' } } });
    run.append({ kind: 'guard', name: 'silence', outcome: 'nudge', data: {} });
    run.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
  }
  ledger.flush();
  return ledger.path;
}

describe('query plans at scale', () => {
  it('the run list walks the runs table newest first and reads each listed run through an index: no scan of entries, no sort', () => {
    const plan = planOf(ledgerWithRuns(), LIST_RUNS_SQL);
    expect(plan.filter((line) => line.startsWith('SCAN') && !MAY_SCAN.test(line))).toEqual([]);
    expect(plan.some((line) => line.includes('TEMP B-TREE'))).toBe(false);
    // The tool-call count and the end entry: (run_id, kind) of entries_run_kind, not (kind, …).
    expect(plan).toContain('SEARCH t USING COVERING INDEX entries_run_kind (run_id=? AND kind=?)');
    expect(plan).toContain('SEARCH x USING COVERING INDEX entries_run_kind (run_id=? AND kind=?)');
    expect(plan).toContain('SEARCH e USING PRIMARY KEY (run_id=? AND seq=?) LEFT-JOIN');
  });

  it.each([
    ...Object.entries(COUNT_SQL),
    ...Object.entries(CHAT_TURN_SQL).map(([name, sql]) => [name, sql.sqlite] as const),
  ])('stats query %s reads entries through an index, never whole', (_, sql) => {
    const plan = planOf(ledgerWithRuns(), sql);
    expect(plan.filter((line) => line.startsWith('SCAN') && !MAY_SCAN.test(line))).toEqual([]);
    const searches = plan.filter((line) => line.startsWith('SEARCH') && !/^SEARCH (r|runs)\b/.test(line));
    expect(searches.length).toBeGreaterThan(0);
    for (const line of searches) expect(line).toMatch(/INDEX entries_(run_kind|kind_outcome_ts)|PRIMARY KEY/);
  });

  it.each(['chatTurns', 'pathOutsideProject', 'treeCalls'] as const)(
    "the Coder's chat query %s goes from each chat run to its own entries, never through all tool calls or guards",
    (name) => {
      const plan = planOf(ledgerWithRuns(), CHAT_TURN_SQL[name].sqlite);
      const entries = plan.filter((line) => /^SEARCH (t|g|x|e)\b/.test(line));
      expect(entries.length).toBeGreaterThan(0);
      for (const line of entries) expect(line).toMatch(/\(run_id=\?/);
    },
  );

  it('counts by kind and outcome come from entries_kind_outcome_ts alone (the entries themselves are not read)', () => {
    const path = ledgerWithRuns();
    expect(planOf(path, COUNT_SQL.fires)).toContain(
      'SEARCH entries USING COVERING INDEX entries_kind_outcome_ts (kind=?)',
    );
    expect(planOf(path, COUNT_SQL.rejections)[0]).toBe(
      'SEARCH entries USING INDEX entries_kind_outcome_ts (kind=? AND outcome=? AND ts>?)',
    );
  });
});
