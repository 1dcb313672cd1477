// Ledger appends per second on each SQLite driver: this Node's, and every Node named in
// TALLY_BENCH_NODES (comma-separated binaries, e.g. from the npm `node` package), so
// node:sqlite (Node 22.13+/24) and better-sqlite3 (Node 20) are compared process against
// process, interleaved, with medians — and each run must leave the same entries on disk.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BenchRow } from '../measure.js';

const run = promisify(execFile);
const APPENDS = 20_000;
const SAMPLES = 7;
const TARGET = 15_000;

interface Sample {
  node: string;
  driver: string;
  wallMs: number;
  cpuMs: number;
  count: number;
  digest: string;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function sqliteDriversBench(): Promise<BenchRow[]> {
  const nodes = [process.execPath, ...(process.env.TALLY_BENCH_NODES ?? '').split(',').filter(Boolean)];
  const child = join(import.meta.dirname, 'append-rate-child.ts');
  const samples = new Map<string, Sample[]>(nodes.map((node) => [node, []]));
  // Interleaved: a load spike on this shared machine hits every Node alike.
  for (let round = 0; round < SAMPLES; round++) {
    for (const node of nodes) {
      const { stdout } = await run(node, ['--import', 'tsx', child, String(APPENDS)], {
        cwd: join(import.meta.dirname, '..', '..'),
      });
      samples.get(node)?.push(JSON.parse(stdout) as Sample);
    }
  }
  const all = [...samples.values()].flat();
  const expected = all[0];
  const parity = all.every((sample) => sample.count === expected?.count && sample.digest === expected.digest);
  if (!parity || expected?.count !== APPENDS + 500)
    throw new Error(
      `the drivers left different ledgers: ${JSON.stringify(all.map((s) => [s.node, s.count, s.digest]))}`,
    );
  return [...samples.values()].flatMap((runs) => {
    const first = runs[0] as Sample;
    const wall = Math.round(APPENDS / (median(runs.map((sample) => sample.wallMs)) / 1000));
    const cpu = Math.round(APPENDS / (median(runs.map((sample) => sample.cpuMs)) / 1000));
    return [
      {
        name: `appends/s, node ${first.node} ${first.driver} (median of ${SAMPLES})`,
        value: wall.toLocaleString('en'),
        target: `≥ ${TARGET.toLocaleString('en')}`,
        pass: wall >= TARGET,
      },
      {
        name: `appends per CPU second, node ${first.node} ${first.driver}`,
        value: cpu.toLocaleString('en'),
        target: `≥ ${TARGET.toLocaleString('en')}`,
        pass: cpu >= TARGET,
      },
    ];
  });
}
