import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { Ledger, openLedger } from '../../src/core/ledger/ledger.js';
import { postgresUnavailable, startPostgres } from '../../test/support/postgres-server.js';
import type { BenchRow } from '../measure.js';
import { appendRun } from './ledger-scale-bench.js';

const run = promisify(execFile);

/**
 * Issue 21: the PostgreSQL ledger next to the SQLite one on the same data — appends/s (a
 * process appending, committing every 10) and `tally runs` / `tally stats` as the processes a
 * user runs, each backend measured the same way, interleaved, medians of SAMPLES; parity
 * asserted (same entries stored, same runs listed, same stats). PostgreSQL is a real server
 * started like the tests start it (test/support/postgres-server.ts); without its binaries the
 * suite prints why and measures nothing. TALLY_BENCH_PG_RUNS sets the runs (50 entries each).
 */
const RUNS = Number(process.env.TALLY_BENCH_PG_RUNS ?? 2_000);
const APPENDS = 10_000;
const SAMPLES = 5;
const TALLY = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const APPEND_CHILD = join(import.meta.dirname, 'backend-append-child.ts');
// Resolved here: the measured processes run in a temp dir, where no node_modules is.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

export async function postgresLedgerBench(): Promise<BenchRow[]> {
  const skip = postgresUnavailable();
  if (skip) {
    process.stdout.write(`(PostgreSQL ledger bench skipped: ${skip})\n`);
    return [];
  }
  const server = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-pg-'));
  try {
    mkdirSync(join(dir, 'state'));
    const targets = {
      sqlite: join(dir, '.tally', 'ledger.db'),
      postgres: server.createDatabase('tally_bench'),
    };
    // The same runs in both: built in SQLite through the library, then copied as `ledger copy` does.
    const sqlite = Ledger.open(targets.sqlite);
    for (let index = 0; index < RUNS; index++) appendRun(sqlite, index);
    sqlite.close();
    const source = await openLedger(targets.sqlite, { readonly: true });
    const destination = await openLedger(targets.postgres);
    for await (const batch of source.exportRuns(500)) await destination.importRuns(batch);
    await source.close();
    await destination.close();

    const env = { PATH: process.env.PATH, HOME: dir, XDG_STATE_HOME: join(dir, 'state') };
    const timed = async (args: string[]) => {
      const started = performance.now();
      const { stdout } = await run(process.execPath, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
      return { ms: performance.now() - started, stdout };
    };
    const commands = (target: string): Record<string, string[]> => ({
      runs: [TALLY, 'runs', '--json', '--ledger', target],
      stats: [TALLY, 'stats', '--since', '30d', '--json', '--ledger', target],
      appends: ['--import', TSX, APPEND_CHILD, target, String(APPENDS)],
    });
    const samples: Record<string, { ms: number; stdout: string }[]> = {};
    // Interleaved: each round runs every command on each backend once, so noise hits all alike.
    for (let round = 0; round < SAMPLES; round++)
      for (const [backend, target] of Object.entries(targets))
        for (const [label, args] of Object.entries(commands(target))) {
          const key = `${label}:${backend}`;
          samples[key] = [...(samples[key] ?? []), await timed(args)];
        }

    const first = (key: string) => JSON.parse(samples[key]?.[0]?.stdout ?? 'null') as unknown;
    // Parity: the same runs listed (ids in order, counts), the same stats, the same entries stored.
    const listing = (key: string) =>
      (first(key) as { id: string; toolCalls: number; status: string | null }[]).map((row) => [
        row.id,
        row.toolCalls,
        row.status,
      ]);
    if (
      !isDeepStrictEqual(listing('runs:sqlite'), listing('runs:postgres')) ||
      listing('runs:sqlite').length === 0
    )
      throw new Error('tally runs listed different runs on SQLite and PostgreSQL');
    // `since` is "30 days before now", computed by each process: not part of the counts.
    const counts = (key: string) => ({ ...(first(key) as object), since: undefined });
    if (!isDeepStrictEqual(counts('stats:sqlite'), counts('stats:postgres')))
      throw new Error('tally stats counted differently on SQLite and PostgreSQL');
    if ((first('stats:postgres') as { runs: number }).runs < RUNS)
      throw new Error(`tally stats counted fewer than the ${RUNS} runs built`);
    const appended = (key: string) =>
      (samples[key] ?? []).map(
        (sample) => JSON.parse(sample.stdout) as { wallMs: number; count: number; digest: string },
      );
    const digests = new Set(
      [...appended('appends:sqlite'), ...appended('appends:postgres')].map((a) => a.digest),
    );
    if (digests.size !== 1 || appended('appends:postgres').some((a) => a.count !== APPENDS))
      throw new Error('the appended entries differ between SQLite and PostgreSQL');

    const rate = (backend: string) =>
      Math.round(APPENDS / (median(appended(`appends:${backend}`).map((a) => a.wallMs)) / 1000));
    const time = (key: string) => median((samples[key] ?? []).map((sample) => sample.ms));
    const compared = (name: string, label: string): BenchRow => ({
      name,
      value: seconds(time(`${label}:postgres`)),
      baseline: `${seconds(time(`${label}:sqlite`))} SQLite`,
      ratio: (time(`${label}:postgres`) / time(`${label}:sqlite`)).toFixed(2),
    });
    const entries = (RUNS * 50).toLocaleString('en');
    return [
      {
        name: `PostgreSQL appends/s, one process, commit every 10`,
        value: rate('postgres').toLocaleString('en'),
        baseline: `${rate('sqlite').toLocaleString('en')} SQLite`,
        ratio: (rate('postgres') / rate('sqlite')).toFixed(2),
      },
      compared(`tally runs on PostgreSQL (${RUNS.toLocaleString('en')} runs, ${entries} entries)`, 'runs'),
      compared('tally stats on PostgreSQL (same data)', 'stats'),
    ];
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
