import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Ledger } from '../../src/core/ledger/ledger.js';

const run = promisify(execFile);

/**
 * Peak RSS of `tally runs show RUN` and `tally report RUN --out FILE` on one 200k-entry run (a
 * long coder session: model calls, and tool calls that create, rewrite and delete files, with
 * intents) — what the summary part of a streamed read holds. Run as
 * `node --import tsx bench/core/summary-memory-bench.ts [BEFORE_TALLY_JS]`: with a second
 * `tally.js` (an earlier build), both are run interleaved, SAMPLES rounds, medians, and their
 * outputs asserted identical. The ledger is built in a temp dir and deleted after. Peak RSS
 * includes the read-only ledger's mmap (~120 MB of file pages here); the peak JS heap is what
 * the process holds.
 */
const ENTRIES = Number(process.env.TALLY_BENCH_SUMMARY_ENTRIES ?? 200_000);
const FILES = 5_000;
const SAMPLES = 5;
const AFTER = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const RSS_HOOK = pathToFileURL(join(import.meta.dirname, 'max-rss.mjs')).href;
const HEAP_HOOK = pathToFileURL(join(import.meta.dirname, 'peak-heap.mjs')).href;

export function buildRun(path: string): string {
  const ledger = Ledger.open(path);
  const recorder = ledger.startRun({ agent: 'coder', task: 'rewrite the project', meta: {} });
  recorder.append({ kind: 'contract', data: { source: 'task', description: 'the project rewritten' } });
  let calls = 0;
  while (calls * 3 + 2 < ENTRIES) {
    const key = `src/module-${calls % FILES}/file.ts`;
    const round = Math.floor(calls / FILES);
    const kind =
      round === 0 ? 'created' : round % 4 === 3 ? 'deleted' : round % 4 === 0 ? 'created' : 'updated';
    const intentId = `intent-${calls}-${'x'.repeat(24)}`;
    recorder.append({
      kind: 'model_call',
      name: 'anthropic:claude-sonnet',
      outcome: 'tool-calls',
      data: {
        inputTokens: 1800,
        outputTokens: 120,
        finishReason: 'tool-calls',
        text: 'Writing the next file.',
      },
    });
    recorder.append({
      kind: 'intent',
      name: 'fs_write',
      data: { intentId, tool: 'fs_write', action: 'write', resources: [{ space: 'file', key }] },
    });
    recorder.append({
      kind: 'tool_call',
      name: 'fs_write',
      outcome: 'ok',
      data: {
        tool: 'fs_write',
        target: key,
        intents: [intentId],
        input: { path: key, content: `export const value${calls} = ${calls};\n`.repeat(8) },
        result: { path: key, bytes: 320 },
        evidence: {
          via: `fs_write ${key}`,
          effects: [
            {
              kind,
              space: 'file',
              key,
              observed: { bytes: 320, sha256: `${String(calls).padStart(8, '0')}${'a'.repeat(56)}` },
            },
          ],
        },
        durationMs: 3,
      },
    });
    calls++;
    if (calls % 500 === 0) ledger.flush();
  }
  recorder.append({
    kind: 'claim',
    outcome: 'verified',
    data: { claim: { target: 'src' }, via: 'fs_write' },
  });
  recorder.append({
    kind: 'end',
    outcome: 'finished',
    data: { reason: 'finished', status: 'success', summary: 'Rewrote the project.' },
  });
  ledger.close();
  return recorder.runId;
}

interface Sample {
  rss: number;
  heap: number;
  cpu: number;
}

async function measure(dir: string, args: string[]): Promise<Sample & { stdout: string }> {
  const rssFile = join(dir, 'rss');
  const heapFile = join(dir, 'heap');
  const { stdout, stderr } = await run(
    '/usr/bin/time',
    ['-f', '%U %S', process.execPath, '--import', RSS_HOOK, '--import', HEAP_HOOK, ...args],
    {
      cwd: dir,
      maxBuffer: 512 * 1024 * 1024,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        XDG_STATE_HOME: join(dir, 'state'),
        TALLY_BENCH_RSS_FILE: rssFile,
        TALLY_BENCH_HEAP_FILE: heapFile,
      },
    },
  );
  const [user, sys] = stderr.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
  return {
    rss: Number(readFileSync(rssFile, 'utf8')),
    heap: Number(readFileSync(heapFile, 'utf8')),
    cpu: (user ?? 0) + (sys ?? 0),
    stdout,
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function main(): Promise<void> {
  const before = process.argv[2];
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-summary-'));
  try {
    mkdirSync(join(dir, 'state'));
    const runId = buildRun(join(dir, '.tally', 'ledger.db'));
    const builds = before ? { before, after: AFTER } : { after: AFTER };
    const samples: Record<string, Sample[]> = {};
    const outputs: Record<string, string> = {};
    for (let round = 0; round < SAMPLES; round++)
      for (const [build, tally] of Object.entries(builds))
        for (const command of ['show', 'report'] as const) {
          const out = join(dir, `report-${build}.html`);
          const args =
            command === 'show' ? [tally, 'runs', 'show', runId] : [tally, 'report', runId, '--out', out];
          const sample = await measure(dir, args);
          const label = `${command} ${build}`;
          outputs[label] = command === 'show' ? sample.stdout : readFileSync(out, 'utf8');
          samples[label] = [...(samples[label] ?? []), sample];
        }
    if (before)
      for (const command of ['show', 'report'])
        if (outputs[`${command} before`] !== outputs[`${command} after`])
          throw new Error(`${command}: the two builds printed different output`);
    process.stdout.write(`\n## summary memory, one run of ${ENTRIES} entries (medians of ${SAMPLES})\n`);
    for (const [label, rows] of Object.entries(samples))
      process.stdout.write(
        `${label.padEnd(16)} peak RSS ${mb(median(rows.map((row) => row.rss))).padStart(8)}   peak JS heap ${mb(median(rows.map((row) => row.heap))).padStart(8)}   CPU ${median(rows.map((row) => row.cpu)).toFixed(2)} s\n`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('summary-memory-bench.ts')) await main();
