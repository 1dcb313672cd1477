import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger } from '../../src/core/ledger/ledger.js';
import type { BenchRow } from '../measure.js';

const APPENDS = 20_000;
const PROCESSES = 4;
const PER_PROCESS = 10_000;

function entry(index: number) {
  return {
    kind: 'tool_call' as const,
    name: 'bench',
    outcome: 'ok',
    data: { index, input: { path: `src/file-${index}.ts` } },
  };
}

async function parallelProcesses(path: string): Promise<number> {
  const workers = Array.from({ length: PROCESSES }, () =>
    fork(join(import.meta.dirname, 'append-worker.ts'), [path, String(PER_PROCESS)], {
      execArgv: ['--import', 'tsx'],
    }),
  );
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
  const started = performance.now();
  const done = Promise.all(
    workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))),
  );
  for (const worker of workers) worker.send('go');
  await done;
  return performance.now() - started;
}

export async function ledgerBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-ledger-'));
  try {
    const ledger = Ledger.open(join(dir, 'single.db'));
    const recorder = ledger.startRun({ agent: 'bench', task: 'appends' });
    for (let index = 0; index < 500; index++) recorder.append(entry(index)); // warm-up
    let started = performance.now();
    for (let index = 0; index < APPENDS; index++) {
      recorder.append(entry(index));
      // Measure committed writes, not queueing: commit every 10 appends (a busy agent step's worth).
      if (index % 10 === 9) ledger.flush();
    }
    ledger.flush();
    const singleMs = performance.now() - started;

    // Parallel tool calls in one run: many async callers appending concurrently.
    const parallel = ledger.startRun({ agent: 'bench', task: 'parallel appends in one process' });
    started = performance.now();
    await Promise.all(Array.from({ length: APPENDS }, async (_, index) => parallel.append(entry(index))));
    ledger.flush();
    const inProcessMs = performance.now() - started;
    ledger.close();

    const multiMs = await parallelProcesses(join(dir, 'multi.db'));
    const check = Ledger.open(join(dir, 'multi.db'));
    const total = check.listRuns().reduce((sum, run) => sum + check.entries(run.id).length, 0);
    check.close();
    if (total !== PROCESSES * PER_PROCESS)
      throw new Error(`lost entries: ${total} of ${PROCESSES * PER_PROCESS}`);

    const rate = (count: number, ms: number) => Math.round(count / (ms / 1000));
    const single = rate(APPENDS, singleMs);
    return [
      {
        name: `ledger appends/s, one process (${APPENDS})`,
        value: single.toLocaleString('en'),
        target: '≥ 10,000',
        pass: single >= 10_000,
      },
      {
        name: `ledger appends/s, ${APPENDS} concurrent callers in one run`,
        value: rate(APPENDS, inProcessMs).toLocaleString('en'),
      },
      {
        name: `ledger appends/s, ${PROCESSES} processes × ${PER_PROCESS} (none lost)`,
        value: rate(PROCESSES * PER_PROCESS, multiMs).toLocaleString('en'),
        baseline: `${single.toLocaleString('en')} single`,
        ratio: (rate(PROCESSES * PER_PROCESS, multiMs) / single).toFixed(2),
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
