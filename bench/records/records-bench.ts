import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { defaultIndexPath } from '../../src/packs/records/indexed-records.js';
import type { BenchRow } from '../measure.js';

const exec = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const STORES = [
  'references/procedures',
  'references/decisions',
  'references/solutions',
  'references/failure-modes',
  'references/principles',
  'plans',
];
const WORDS =
  'deploy release migration schema database postgres cache queue retry payment search index lock timeout rollback feature flag tenant billing invoice audit backup restore secret rotation token session login checkout cart order refund webhook email report export import upload storage cdn latency throughput'.split(
    ' ',
  );

/** A generated corpus: realistic frontmatter, links between records, spread over the stores. */
function generate(root: string, count: number): string[] {
  const paths: string[] = [];
  for (const store of STORES)
    for (let bucket = 0; bucket < Math.ceil(count / STORES.length / 500); bucket++)
      mkdirSync(join(root, store, `area-${bucket}`), { recursive: true });
  for (let index = 0; index < count; index++) {
    const store = STORES[index % STORES.length] as string;
    const bucket = Math.floor(index / STORES.length / 500);
    const words = [0, 1, 2, 3].map((offset) => WORDS[(index * 7 + offset * 13) % WORDS.length]);
    const path = `${store}/area-${bucket}/record-${index}.md`;
    const kind =
      store === 'references/failure-modes'
        ? 'failure-mode'
        : (store.split('/').at(-1)?.replace(/s$/, '') ?? 'plan');
    writeFileSync(
      join(root, path),
      `---\nid: R-${index}\nkind: ${kind}\ndate: 2026-01-01\nstatus: active\ntitle: ${words[0]} ${words[1]} record ${index}\nkeywords: [${words.join(', ')}]\nlinks:\n  decisions: [R-${(index * 31) % count}]\n---\n# ${words.join(' ')} for case ${index}\n\nRun \`npm run ${words[0]}\` and check the ${words[2]} dashboard.\n`,
    );
    paths.push(path);
  }
  return paths;
}

async function cli(root: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const started = performance.now();
  await exec(process.execPath, [BIN, 'records', 'query', '--root', root, ...args], {
    env: { ...process.env, TALLY_RECORDS_STORES: '', ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return performance.now() - started;
}

async function median(times: number, fn: () => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < times; index++) samples.push(await fn());
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
}

async function corpusRows(count: number, dir: string): Promise<BenchRow[]> {
  const root = join(dir, `corpus-${count}`);
  const paths = generate(root, count);
  const catArgs = [
    '--cat',
    ...paths.filter((_, index) => index % Math.floor(count / 200) === 0).slice(0, 200),
  ];
  const modes: [string, string[], number | undefined][] = [
    // As an agent calls it: the top hits, not every one of thousands of matches.
    [
      '--keyword (top 20)',
      ['--keyword', 'migration rollback', '--limit', '20'],
      count === 50_000 ? 150 : undefined,
    ],
    ['--kind', ['--kind', 'decision', '--limit', '20'], undefined],
    ['--recall', ['--recall', 'lock timeout'], undefined],
    ['--cat 200 paths', catArgs, count === 50_000 ? 200 : undefined],
  ];
  const rows: BenchRow[] = [];
  const index = defaultIndexPath(root, {});
  const baselineRuns = count >= 50_000 ? 1 : 3;
  for (const [name, args, target] of modes) {
    const scan = await median(baselineRuns, () => cli(root, ['--no-index', ...args]));
    rmSync(index, { force: true });
    rmSync(`${index}-wal`, { force: true });
    rmSync(`${index}-shm`, { force: true });
    const cold = await cli(root, args);
    const warm = await median(5, () => cli(root, args));
    const warmDirs = await median(5, () => cli(root, args, { TALLY_RECORDS_INDEX_CHECK: 'dirs' }));
    rows.push({
      name: `${count.toLocaleString('en')} records ${name}: warm CLI ms (full check)`,
      value: warm.toFixed(0),
      baseline: `${scan.toFixed(0)} plain scan; cold ${cold.toFixed(0)}; dirs-only ${warmDirs.toFixed(0)}`,
      ratio: `${(scan / warm).toFixed(1)}× faster`,
      ...(target ? { target: `≤ ${target} ms`, pass: warm <= target } : {}),
    });
  }
  return rows;
}

export async function recordsBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-records-'));
  try {
    const node = await median(5, async () => {
      const started = performance.now();
      await exec(process.execPath, ['-e', '0']);
      return performance.now() - started;
    });
    return [
      { name: 'node start alone, ms (floor for any CLI call)', value: node.toFixed(0) },
      ...(await corpusRows(2_000, dir)),
      ...(await corpusRows(50_000, dir)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
