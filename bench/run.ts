// `npm run bench`: every figure is printed next to a baseline measured in the same run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteDriver } from '../src/core/sqlite/open-sqlite.js';
import { ledgerBench } from './core/ledger-bench.js';
import { ledgerScaleBench } from './core/ledger-scale-bench.js';
import { loopBench } from './core/loop-bench.js';
import { postgresLedgerBench } from './core/postgres-ledger-bench.js';
import { sqliteDriversBench } from './core/sqlite-drivers-bench.js';
import { fishermanBench } from './fisherman/fisherman-bench.js';
import { hooksBench } from './hooks/hooks-bench.js';
import { mcpSoakBench } from './mcp/soak-bench.js';
import { type BenchRow, printRows } from './measure.js';
import { recordsBench } from './records/records-bench.js';
import { workspaceBench } from './workspace/workspace-bench.js';

const suites: Record<string, () => Promise<BenchRow[]>> = {
  'core: ledger': ledgerBench,
  'core: SQLite drivers': sqliteDriversBench,
  'core: ledger at 1M entries': ledgerScaleBench,
  'core: PostgreSQL ledger vs SQLite': postgresLedgerBench,
  'core: agent loop': loopBench,
  fisherman: fishermanBench,
  workspace: workspaceBench,
  records: recordsBench,
  'hooks: latency': hooksBench,
  'mcp: soak': mcpSoakBench,
};

const only = process.argv[2];
// Figures depend on the SQLite driver this Node gets (node:sqlite or better-sqlite3).
const sqlite = sqliteDriver();
process.stdout.write(`node ${process.version} · SQLite driver ${sqlite}\n`);
const results: Record<string, BenchRow[]> = {};
for (const [title, suite] of Object.entries(suites)) {
  if (only && !title.includes(only)) continue;
  results[title] = await suite();
  printRows(title, results[title]);
}
const out = join(import.meta.dirname, '.out');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'results.json'),
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, sqlite, results }, null, 2)}\n`,
);
process.stdout.write(`\nResults written to bench/.out/results.json\n`);
