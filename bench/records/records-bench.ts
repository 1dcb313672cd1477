import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { residentTarget } from '../../src/surfaces/cli/records-resident-client.js';
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

/** Runs every call once per round, the order rotating each round; the median of each. */
async function rotated(rounds: number, calls: (() => Promise<Run>)[]): Promise<Run[]> {
  const runs: Run[][] = calls.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (let step = 0; step < calls.length; step++) {
      const which = (round + step) % calls.length;
      runs[which]?.push(await (calls[which] as () => Promise<Run>)());
    }
  return runs.map(summary);
}

/**
 * Starts `tally records serve` for `root` (the resident server a first CLI query starts on its
 * own) and waits until its socket is there; the returned function stops it. Undefined when the
 * measured build is not this checkout's (TALLY_BENCH_BIN): the socket name is keyed by build.
 */
async function startResident(root: string, env: NodeJS.ProcessEnv): Promise<(() => void) | undefined> {
  if (BIN !== join(REPO, 'bin', 'tally.js')) return undefined;
  const target = residentTarget({ root }, env);
  if ('miss' in target) throw new Error(`no resident server possible: ${target.why}`);
  const child = spawn(process.execPath, [BIN, 'records', 'serve', '--root', root, '--idle-exit', '3600'], {
    env,
    stdio: 'ignore',
  });
  const end = Date.now() + 600_000;
  while (!existsSync(target.socket)) {
    if (child.exitCode !== null || Date.now() > end)
      throw new Error('the resident records server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return () => child.kill();
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

/**
 * A target of issue 22, as the most milliseconds Tally may take given what was measured
 * alongside it: a share of the peer, a multiple of `node -e 0`, or a fixed budget.
 */
interface Target {
  text: string;
  limitMs: (peerMs: number, nodeMs: number) => number;
}

const ofPeer = (share: number): Target => ({ text: `≤ ${share}× peer`, limitMs: (peer) => peer * share });
const ofNode = (times: number, plusMs = 0): Target => ({
  text: `≤ ${times}× node -e 0${plusMs ? ` + ${plusMs} ms` : ''}`,
  limitMs: (_peer, node) => node * times + plusMs,
});
const peerOrNode = (share: number, times: number): Target => ({
  text: `≤ max(${share}× peer, ${times}× node -e 0)`,
  limitMs: (peer, node) => Math.max(peer * share, node * times),
});
const budget = (ms: number): Target => ({ text: `≤ ${ms} ms`, limitMs: () => ms });

function row(
  name: string,
  tally: Run,
  peer: Run | undefined,
  node: Run,
  target: Target,
  parity?: Parity,
): BenchRow {
  if (parity && peer) assertParity(name, parity, tally, peer);
  const limit = target.limitMs(peer?.ms ?? Number.NaN, node.ms);
  return {
    name,
    value: `${tally.ms.toFixed(0)} ms`,
    baseline: `${peer ? `peer ${peer.ms.toFixed(0)} ms, ` : ''}node -e 0 ${node.ms.toFixed(0)} ms (${tally.lines}${peer ? ` vs ${peer.lines}` : ''} lines${parity && peer ? ', same answer' : ''})`,
    ratio: `${peer ? `${(tally.ms / peer.ms).toFixed(3)}× peer, ` : ''}${(tally.ms / node.ms).toFixed(2)}× node -e 0`,
    target: `${target.text} = ${limit.toFixed(0)} ms`,
    pass: tally.ms <= limit,
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

/** Issue 22's targets at each corpus size (500,000: no peer run, a fixed budget per warm call). */
function targetsFor(
  count: number,
): Record<'build' | 'keyword' | 'kind' | 'recall' | 'cat', Target | undefined> {
  if (count <= 2_000) {
    const mode = peerOrNode(1, 1.3);
    return { build: ofNode(1.3, 100), keyword: mode, kind: mode, recall: mode, cat: mode };
  }
  if (count <= 50_000)
    return {
      build: ofPeer(0.5),
      keyword: ofPeer(0.03),
      kind: ofPeer(0.2),
      recall: ofNode(1.5),
      cat: ofPeer(0.03),
    };
  return {
    build: undefined,
    keyword: budget(1000),
    kind: budget(1000),
    recall: budget(1000),
    cat: budget(1000),
  };
}

/**
 * `tally records query` against the peer on one generated corpus, each call next to the peer
 * and `node -e 0` (the order rotating each round). `peerScript` undefined: Tally alone (the
 * 500,000-record run, where one peer --keyword takes minutes).
 */
async function corpusRows(count: number, dir: string, peerScript: string | undefined): Promise<BenchRow[]> {
  const root = join(dir, `corpus-${count}`);
  // The peer's generator, so both tools read the corpus the peer was written for.
  if (!existsSync(root))
    await exec(process.execPath, [join(SHARED, 'gen-records.mjs'), root, String(count)], {
      maxBuffer: 1 << 24,
    });
  const cache = join(dir, `cache-${count}`);
  // The one-shot CLI (TALLY_RECORDS_RESIDENT=0: no server asked, none started) and the CLI
  // answered by a resident server ("warm CLI"), whose socket folder is private to this run.
  const residentEnv: NodeJS.ProcessEnv = {
    ...process.env,
    TALLY_RECORDS_STORES: '',
    TALLY_RECORDS_INDEX_CHECK: '',
    TALLY_RECORDS_RESIDENT: '',
    XDG_CACHE_HOME: cache,
    XDG_RUNTIME_DIR: join(dir, 'runtime'),
  };
  delete residentEnv.TALLY_RECORDS_INDEX;
  mkdirSync(join(dir, 'runtime'), { recursive: true, mode: 0o700 });
  const tallyEnv: NodeJS.ProcessEnv = { ...residentEnv, TALLY_RECORDS_RESIDENT: '0' };
  const peerEnv: NodeJS.ProcessEnv = { ...process.env, QUERY_RECORDS_ROOT: root, CODEX_ROOT: root };
  const tally =
    (args: string[], env = tallyEnv) =>
    () =>
      timed(process.execPath, [BIN, 'records', 'query', '--root', root, ...args], env);
  const peer = (args: string[]) => () => timed('bash', [peerScript as string, ...args], peerEnv);
  const node = () => timed(process.execPath, ['-e', '0'], process.env);
  const paths = recordPaths(root);
  const cat = [
    '--cat',
    ...paths.filter((_, index) => index % Math.floor(paths.length / 200) === 0).slice(0, 200),
  ];
  const label = `${count.toLocaleString('en')} records`;
  const targets = targetsFor(count);
  const rows: BenchRow[] = [];

  const cold = async () => {
    // No index anywhere: the cache folder, and the folder older builds kept next to the records.
    rmSync(cache, { recursive: true, force: true });
    rmSync(join(root, '.tally'), { recursive: true, force: true });
    mkdirSync(cache);
    return tally(['--keyword', KEYWORD])();
  };
  // The peer has no index: its first and warm --keyword are the same call, so one block of
  // rounds times the cold build, the warm query, the peer and node, the order rotating.
  const rounds = peerScript ? PAIRS : 1;
  const [built, warm, nodeRun, peerRun] = await rotated(rounds, [
    cold,
    tally(['--keyword', KEYWORD]),
    node,
    ...(peerScript ? [peer(['--keyword', KEYWORD])] : []),
  ]);
  const [coldRun, warmRun, nodeFloor] = [built, warm, nodeRun] as [Run, Run, Run];
  if (targets.build)
    rows.push(row(`${label}: first query (index build)`, coldRun, peerRun, nodeFloor, targets.build, 'set'));
  else
    rows.push({
      name: `${label}: first query (index build)`,
      value: `${coldRun.ms.toFixed(0)} ms`,
      baseline: `node -e 0 ${nodeFloor.ms.toFixed(0)} ms (${coldRun.lines} lines)`,
    });
  // A cold build runs once at 500,000: the warm call is measured on its own after it.
  const warmKeyword = peerScript
    ? warmRun
    : ((await rotated(PAIRS, [tally(['--keyword', KEYWORD]), node]))[0] as Run);
  rows.push(
    row(`${label}: warm --keyword`, warmKeyword, peerRun, nodeFloor, targets.keyword as Target, 'set'),
  );
  // The warm CLI: the same queries answered by a resident server over its socket. Started
  // after the cold build (which removes the index), it opens the index just built.
  const stopResident = await startResident(root, residentEnv);
  try {
    if (stopResident) {
      const [ours, floor, theirs] = await rotated(PAIRS, [
        tally(['--keyword', KEYWORD], residentEnv),
        node,
        ...(peerScript ? [peer(['--keyword', KEYWORD])] : []),
      ]);
      rows.push(
        row(
          `${label}: warm CLI --keyword`,
          ours as Run,
          theirs,
          floor as Run,
          targets.keyword as Target,
          'set',
        ),
      );
    }
    // --recall is not compared: the peer prints the matching mistakes.jsonl lines raw, Tally
    // ranks records and mistakes together (a different answer by design, not a regression);
    // the warm CLI's --recall is compared with the one-shot CLI's instead.
    for (const [name, args, parity, target] of [
      ['--kind', ['--kind', 'decision'], 'set', targets.kind],
      ['--recall', ['--recall', 'lock timeout'], undefined, targets.recall],
      ['--cat 200 paths', cat, 'text', targets.cat],
    ] as [string, string[], Parity | undefined, Target][]) {
      const runs = await rotated(PAIRS, [
        tally(args),
        node,
        ...(peerScript ? [peer(args)] : []),
        ...(stopResident ? [tally(args, residentEnv)] : []),
      ]);
      const [ours, floor] = runs as [Run, Run];
      const theirs = peerScript ? runs[2] : undefined;
      rows.push(row(`${label}: ${name}`, ours, theirs, floor, target, parity));
      const warmOurs = stopResident ? runs.at(-1) : undefined;
      if (warmOurs) {
        if (warmOurs.stdout !== ours.stdout)
          throw new Error(`${label}: warm CLI ${name} printed something else than the one-shot CLI`);
        rows.push(row(`${label}: warm CLI ${name}`, warmOurs, theirs, floor, target, parity));
      }
    }
  } finally {
    stopResident?.();
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
          TALLY_RECORDS_RESIDENT: '0',
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
      // Opt-in: 500,000 records take minutes to generate and index, and ~2 GB of disk.
      ...(process.env.TALLY_BENCH_RECORDS_500K === '1'
        ? [
            ...(await corpusRows(500_000, dir, undefined)),
            ...(await residentRows(
              join(dir, 'corpus-500000'),
              '500,000 records',
              join(dir, 'resident-500000'),
              50,
            )),
          ]
        : [
            {
              name: '500,000 records',
              value: 'skipped',
              baseline: 'set TALLY_BENCH_RECORDS_500K=1 to run it',
            },
          ]),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
