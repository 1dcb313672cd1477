import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { BenchRow } from '../measure.js';
import { residentRows } from './resident-bench.js';

const exec = promisify(execFile);
const REPO = join(import.meta.dirname, '..', '..');
// TALLY_BENCH_BIN measures another build (e.g. a copy of the previous dist/) against the same peer.
const BIN = process.env.TALLY_BENCH_BIN ?? join(REPO, 'bin', 'tally.js');
const SHARED = process.env.TALLY_BENCH_SHARED ?? join(REPO, '..', 'shared', 'bench');
const PAIRS = 5;
const KEYWORD = 'migration rollback';

interface Run {
  ms: number;
  lines: number;
  /** What the call printed (the last sample's, in a summary): parity is asserted on it. */
  stdout: string;
}

async function timed(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  const { stdout } = await exec(file, args, { env, maxBuffer: 512 * 1024 * 1024 });
  const ms = performance.now() - started;
  return { ms, lines: stdout === '' ? 0 : stdout.split('\n').length - 1, stdout };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Runs `a` and `b` alternately (`a` first on even pairs), so load on the machine hits both alike. */
async function interleaved(
  pairs: number,
  a: () => Promise<Run>,
  b: () => Promise<Run>,
): Promise<{ a: Run; b: Run }> {
  const runs: { a: Run[]; b: Run[] } = { a: [], b: [] };
  for (let pair = 0; pair < pairs; pair++) {
    if (pair % 2 === 0) {
      runs.a.push(await a());
      runs.b.push(await b());
    } else {
      runs.b.push(await b());
      runs.a.push(await a());
    }
  }
  return { a: summary(runs.a), b: summary(runs.b) };
}

const summary = (list: Run[]): Run => ({
  ms: median(list.map((run) => run.ms)),
  lines: list.at(-1)?.lines ?? 0,
  stdout: list.at(-1)?.stdout ?? '',
});

/**
 * How Tally's answer must match the peer's: `set`, the same result lines in any order (Tally
 * ranks, the peer lists in file order); `text`, the same text (the peer prints one blank line
 * before the first `==>` header, so surrounding white space is not compared).
 */
type Parity = 'set' | 'text';

/** Throws when the two answers differ: a faster answer to another question is no win. */
function assertParity(name: string, parity: Parity, tally: Run, peer: Run): void {
  const shape = (stdout: string) =>
    parity === 'set' ? stdout.split('\n').filter(Boolean).sort().join('\n') : stdout.trim();
  const ours = shape(tally.stdout);
  const theirs = shape(peer.stdout);
  if (ours === '' || ours !== theirs) {
    const oursLines = ours.split('\n');
    const theirsLines = theirs.split('\n');
    const at = oursLines.findIndex((line, index) => line !== theirsLines[index]);
    throw new Error(
      `${name}: Tally's output differs from the peer's (${tally.lines} vs ${peer.lines} lines; ` +
        `first difference: ${JSON.stringify(oursLines[at] ?? '(end)')} vs ${JSON.stringify(theirsLines[at] ?? '(end)')})`,
    );
  }
}

function row(name: string, tally: Run, peer: Run, target: number, parity?: Parity): BenchRow {
  if (parity) assertParity(name, parity, tally, peer);
  const ratio = tally.ms / peer.ms;
  return {
    name,
    value: `${tally.ms.toFixed(0)} ms`,
    baseline: `peer ${peer.ms.toFixed(0)} ms (${tally.lines} vs ${peer.lines} lines${parity ? ', same answer' : ''})`,
    ratio: `${ratio.toFixed(2)}× (Tally ÷ peer)`,
    target: `≤ ${target}×`,
    pass: ratio <= target,
  };
}

/** Every record path under the stores, sorted: the --cat batch takes an even spread of them. */
function recordPaths(root: string): string[] {
  const paths: string[] = [];
  const stack = [join(root, 'references'), join(root, 'plans')];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const absolute = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(absolute);
      else if (entry.name.endsWith('.md')) paths.push(relative(root, absolute));
    }
  }
  return paths.sort();
}

async function corpusRows(count: number, dir: string, peerScript: string): Promise<BenchRow[]> {
  const root = join(dir, `corpus-${count}`);
  // The peer's generator, so both tools read the corpus the peer was written for.
  if (!existsSync(root)) await exec(process.execPath, [join(SHARED, 'gen-records.mjs'), root, String(count)]);
  const cache = join(dir, `cache-${count}`);
  const tallyEnv: NodeJS.ProcessEnv = {
    ...process.env,
    TALLY_RECORDS_STORES: '',
    TALLY_RECORDS_INDEX_CHECK: '',
    XDG_CACHE_HOME: cache,
  };
  delete tallyEnv.TALLY_RECORDS_INDEX;
  const peerEnv: NodeJS.ProcessEnv = { ...process.env, QUERY_RECORDS_ROOT: root, CODEX_ROOT: root };
  const tally =
    (args: string[], env = tallyEnv) =>
    () =>
      timed(process.execPath, [BIN, 'records', 'query', '--root', root, ...args], env);
  const peer = (args: string[]) => () => timed('bash', [peerScript, ...args], peerEnv);
  const paths = recordPaths(root);
  const cat = [
    '--cat',
    ...paths.filter((_, index) => index % Math.floor(paths.length / 200) === 0).slice(0, 200),
  ];
  const label = `${count.toLocaleString('en')} records`;
  const small = count <= 2_000;
  const rows: BenchRow[] = [];

  const cold = async () => {
    // No index anywhere: the cache folder, and the folder older builds kept next to the records.
    rmSync(cache, { recursive: true, force: true });
    rmSync(join(root, '.tally'), { recursive: true, force: true });
    mkdirSync(cache);
    return tally(['--keyword', KEYWORD])();
  };
  // The peer has no index: its first and warm --keyword are the same call, so one block of
  // rounds times the cold build, the warm query and the peer, the order rotating each round.
  const runs = { cold: [] as Run[], warm: [] as Run[], peer: [] as Run[] };
  const warm = tally(['--keyword', KEYWORD]);
  const peerKeyword = peer(['--keyword', KEYWORD]);
  for (let round = 0; round < PAIRS; round++) {
    if (round % 2 === 1) runs.peer.push(await peerKeyword());
    runs.cold.push(await cold());
    runs.warm.push(await warm());
    if (round % 2 === 0) runs.peer.push(await peerKeyword());
  }
  rows.push(row(`${label}: first query (index build)`, summary(runs.cold), summary(runs.peer), 1, 'set'));
  rows.push(row(`${label}: warm --keyword`, summary(runs.warm), summary(runs.peer), small ? 1 : 0.1, 'set'));
  // --recall is not compared: the peer prints the matching mistakes.jsonl lines raw, Tally
  // ranks records and mistakes together (a different answer by design, not a regression).
  for (const [name, args, parity] of [
    ['--kind', ['--kind', 'decision'], 'set'],
    ['--recall', ['--recall', 'lock timeout'], undefined],
    ['--cat 200 paths', cat, 'text'],
  ] as [string, string[], Parity | undefined][]) {
    const result = await interleaved(PAIRS, tally(args), peer(args));
    rows.push(row(`${label}: ${name}`, result.a, result.b, small ? 1 : 0.1, parity));
  }
  // What the default per-file freshness check costs over trusting directory mtimes alone.
  const check = await interleaved(
    PAIRS,
    tally(['--kind', 'decision']),
    tally(['--kind', 'decision'], { ...tallyEnv, TALLY_RECORDS_INDEX_CHECK: 'dirs' }),
  );
  rows.push({
    name: `${label}: --kind, per-file check vs dirs-only`,
    value: `${check.a.ms.toFixed(0)} ms`,
    baseline: `dirs-only ${check.b.ms.toFixed(0)} ms`,
    ratio: `+${(check.a.ms - check.b.ms).toFixed(0)} ms for the per-file check`,
  });
  return rows;
}

/** `tally records query` vs the shell tool it replaces (query-records.sh), on the peer's corpora. */
export async function recordsBench(): Promise<BenchRow[]> {
  const peerSource = join(SHARED, 'peer', 'scripts');
  if (!existsSync(join(peerSource, 'query-records.sh')))
    return [
      {
        name: 'records vs peer',
        value: 'skipped',
        baseline: `no peer at ${peerSource}; set TALLY_BENCH_SHARED to the folder holding peer/ and gen-records.mjs`,
      },
    ];
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-records-'));
  try {
    // The peer runs from a private copy: nothing of it is part of Tally.
    cpSync(peerSource, join(dir, 'peer'), { recursive: true });
    const peerScript = join(dir, 'peer', 'query-records.sh');
    const empty = join(dir, 'empty-root');
    mkdirSync(empty);
    const startup = await interleaved(
      9,
      () =>
        timed(process.execPath, [BIN, 'records', 'query', '--root', empty, '--keyword', 'x'], {
          ...process.env,
          XDG_CACHE_HOME: join(dir, 'cache-empty'),
        }),
      () => timed(process.execPath, ['-e', '0'], process.env),
    );
    const ratio = startup.a.ms / startup.b.ms;
    return [
      {
        name: 'CLI start-up: records query (empty root) vs node -e 0',
        value: `${startup.a.ms.toFixed(0)} ms`,
        baseline: `node -e 0 ${startup.b.ms.toFixed(0)} ms`,
        ratio: `${ratio.toFixed(2)}×`,
        target: '≤ 1.3×',
        pass: ratio <= 1.3,
      },
      ...(await corpusRows(2_000, dir, peerScript)),
      ...(await residentRows(join(dir, 'corpus-2000'), '2,000 records', join(dir, 'resident-2000'), 20)),
      ...(await corpusRows(50_000, dir, peerScript)),
      ...(await residentRows(join(dir, 'corpus-50000'), '50,000 records', join(dir, 'resident-50000'), 30)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
