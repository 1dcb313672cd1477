import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Ledger, type SqliteLedger } from '../../src/core/ledger/ledger.js';
import type { BenchRow } from '../measure.js';

const run = promisify(execFile);

/**
 * Issue 21: the ledger a busy user reaches in weeks — 1M entries in 20k runs — built from a
 * generator through the library (never committed: a temp dir), then `tally runs`, `runs show`,
 * `stats --since 30d` and `report` measured as the processes a user runs, interleaved, medians
 * of SAMPLES, each against its target. The baseline is the floor any Node CLI pays for the
 * same rows: node starting, opening the file with better-sqlite3 and selecting the 20 newest runs.
 * TALLY_BENCH_LEDGER_RUNS makes it smaller for a quick look (the targets are for 20,000);
 * TALLY_BENCH_LEDGER_KEEP=1 keeps the ledger it built.
 */
const RUNS = Number(process.env.TALLY_BENCH_LEDGER_RUNS ?? 20_000);
const ENTRIES_PER_RUN = 50;
const SAMPLES = 5;
const TALLY = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const RSS_HOOK = pathToFileURL(join(import.meta.dirname, 'max-rss.mjs')).href;

const TOOLS = ['http_request', 'fs_read', 'fs_write', 'shell', 'fs_tree'];

/** One run as an agent writes it: model calls and tool calls, a guard, a gate, claims, the end. */
export function appendRun(ledger: SqliteLedger, index: number): string {
  const chat = index % 10 === 0;
  const recorder = ledger.startRun({
    agent: ['fisherman', 'coder', 'scout', 'mcp'][index % 4] as string,
    task: `prepare ${index % 7} suites with ${index % 5} tests each in project ${index % 13}`,
    meta: chat ? { chatId: `chat_${index % 300}`, orientation: { computed: index % 20 === 0 } } : {},
  });
  for (let step = 0; step < ENTRIES_PER_RUN - 1; step++) {
    if (step % 2 === 0) {
      recorder.append({
        kind: 'model_call',
        name: 'anthropic:claude-sonnet',
        outcome: 'tool-calls',
        data: {
          tokensIn: 1800 + step * 40,
          tokensOut: 120 + step,
          finishReason: 'tool-calls',
          durationMs: 900,
        },
      });
    } else if (step === 45) {
      recorder.append({
        kind: 'guard',
        name: index % 3 ? 'loop' : 'silence',
        outcome: 'nudge',
        data: { step },
      });
    } else if (step === 47) {
      recorder.append({
        kind: 'claim',
        name: 'created',
        outcome: 'verified',
        data: { text: `suite ${index}`, evidence: [step] },
      });
    } else {
      const rejected = step % 13 === 0;
      const tool = TOOLS[(index + step) % TOOLS.length] as string;
      recorder.append({
        kind: 'tool_call',
        name: tool,
        outcome: rejected ? 'rejected' : 'ok',
        data: {
          tool,
          input: {
            method: 'POST',
            url: `/api/projects/p${index % 13}/suites`,
            body: { title: `Suite ${index}-${step}` },
          },
          ...(rejected
            ? {
                error: { code: step % 2 ? 'PATH_OUTSIDE_PROJECT' : 'HTTP_4XX', message: 'refused by policy' },
              }
            : {
                result: {
                  status: 201,
                  id: `${index}${step}`,
                  body: {
                    id: `${index}${step}`,
                    title: `Suite ${index}-${step}`,
                    createdAt: '2026-11-01T10:00:00Z',
                  },
                },
              }),
          evidence: {
            via: `POST /api/projects/p${index % 13}/suites → 201, GET → 200`,
            readBack: true,
            cached: tool === 'fs_tree',
          },
          durationMs: 35,
        },
      });
    }
    // Commit as an agent's group commit does: every few appends (a busy step's worth).
    if (step % 10 === 9) ledger.flush();
  }
  recorder.append({
    kind: 'end',
    outcome: 'finished',
    data: { status: index % 9 ? 'success' : 'partial', summary: `run ${index}` },
  });
  return recorder.runId;
}

interface Sample {
  ms: number;
  rss: number;
  stdout: string;
}

async function measure(dir: string, args: string[], label: string): Promise<Sample> {
  const rssFile = join(dir, `rss-${label}`);
  const started = performance.now();
  const { stdout } = await run(process.execPath, ['--import', RSS_HOOK, ...args], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
    // Only this ledger: no other ledger of the user's, no telemetry.
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_STATE_HOME: join(dir, 'state'),
      TALLY_BENCH_RSS_FILE: rssFile,
    },
  });
  const ms = performance.now() - started;
  return { ms, rss: Number(readFileSync(rssFile, 'utf8')), stdout };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export async function ledgerScaleBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-ledger-1m-'));
  try {
    const path = join(dir, '.tally', 'ledger.db');
    mkdirSync(join(dir, 'state'));
    const ledger = Ledger.open(path);
    const ids: string[] = [];
    const buildStarted = performance.now();
    for (let index = 0; index < RUNS; index++) ids.push(appendRun(ledger, index));
    ledger.close();
    const appendRate = Math.round((RUNS * ENTRIES_PER_RUN) / ((performance.now() - buildStarted) / 1000));
    const shown = ids[Math.floor(RUNS / 2)] as string;
    const reportPath = join(dir, 'report.html');

    const commands: Record<string, string[]> = {
      runs: [TALLY, 'runs', '--json'],
      show: [TALLY, 'runs', 'show', shown],
      stats: [TALLY, 'stats', '--since', '30d', '--json'],
      report: [TALLY, 'report', shown, '--out', reportPath],
      baseline: [
        '-e',
        `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
         const db = new D(${JSON.stringify(path)}, { readonly: true });
         process.stdout.write(JSON.stringify(db.prepare('SELECT id FROM runs ORDER BY id DESC LIMIT 20').all()));`,
      ],
    };
    const samples: Record<string, Sample[]> = {};
    // Interleaved: each round runs every command once, so a noisy neighbour hits all alike.
    for (let round = 0; round < SAMPLES; round++)
      for (const [label, args] of Object.entries(commands)) {
        const sample = await measure(dir, args, label);
        samples[label] = [...(samples[label] ?? []), sample];
      }

    // Parity: each command shows the right thing, not merely something fast.
    const listed = (JSON.parse(samples.runs?.[0]?.stdout ?? '[]') as { id: string; toolCalls: number }[]).map(
      (row) => row.id,
    );
    const floor = (JSON.parse(samples.baseline?.[0]?.stdout ?? '[]') as { id: string }[]).map(
      (row) => row.id,
    );
    if (listed.join() !== floor.join() || listed.length !== 20)
      throw new Error(`tally runs listed ${listed.length} runs, not the 20 newest`);
    const stats = JSON.parse(samples.stats?.[0]?.stdout ?? '{}') as { runs: number };
    if (stats.runs !== RUNS) throw new Error(`tally stats counted ${stats.runs} runs of ${RUNS}`);
    if (!samples.show?.[0]?.stdout.includes(shown)) throw new Error('tally runs show did not show the run');
    if (!existsSync(reportPath) || !readFileSync(reportPath, 'utf8').includes(shown))
      throw new Error('tally report wrote no report of the run');

    const time = (label: string) => median((samples[label] ?? []).map((sample) => sample.ms));
    const rss = (label: string) => median((samples[label] ?? []).map((sample) => sample.rss));
    const row = (name: string, label: string, targetMs: number): BenchRow => ({
      name,
      value: seconds(time(label)),
      baseline: `${seconds(time('baseline'))} bare query`,
      ratio: (time(label) / time('baseline')).toFixed(1),
      target: `≤ ${seconds(targetMs)}`,
      pass: time(label) <= targetMs,
    });
    const entries = (RUNS * ENTRIES_PER_RUN).toLocaleString('en');
    return [
      {
        name: `appends/s building ${entries} entries, ${RUNS.toLocaleString('en')} runs`,
        value: appendRate.toLocaleString('en'),
        target: '≥ 15,000',
        pass: appendRate >= 15_000,
      },
      row('tally runs (20 rows)', 'runs', 300),
      {
        name: 'tally runs, peak RSS',
        value: mb(rss('runs')),
        baseline: `${mb(rss('baseline'))} bare query`,
        target: '≤ 150 MB',
        pass: rss('runs') <= 150 * 1024 * 1024,
      },
      row(`tally runs show (${ENTRIES_PER_RUN} entries)`, 'show', 300),
      row('tally stats --since 30d', 'stats', 3000),
      row('tally report', 'report', 1000),
    ];
  } finally {
    // TALLY_BENCH_LEDGER_KEEP=1 keeps the built ledger to compare another build against it.
    if (process.env.TALLY_BENCH_LEDGER_KEEP === '1') process.stdout.write(`(ledger kept in ${dir})\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
