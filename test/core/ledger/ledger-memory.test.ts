// A long-lived process (`tally mcp`) records run after run: what the ledger keeps in memory for
// them must not grow with the number of runs (PostgreSQL keeps a run's entries for its own
// bookkeeping; SQLite reads them back from the file).
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FINISHED_RUNS_KEPT } from '../../../src/core/ledger/postgres-ledger.js';
import { useLedgerBackends } from '../../support/ledger-backends.js';

const backends = useLedgerBackends();
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe.each(backends)('many runs in one process on $name', (backend) => {
  const test = backend.skip ? it.skip : it;

  test('memory stays bounded; every run stays readable from the store', async () => {
    const ledger = await backend.open();
    try {
      const pad = 'x'.repeat(2000);
      const ids: string[] = [];
      const record = async (runs: number) => {
        for (let index = 0; index < runs; index++) {
          const run = ledger.startRun({ agent: 'mcp', task: `session ${index}` });
          for (let call = 0; call < 10; call++)
            run.append({ kind: 'tool_call', name: 'read', outcome: 'ok', data: { call, pad } });
          run.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
          ids.push(run.runId);
          if (index % 100 === 99) expect(await ledger.commit()).toBe(true);
        }
        expect(await ledger.commit()).toBe(true);
      };
      await record(200); // warm up: pools, statements, the kept window filled
      const before = heapMb();
      await record(3000); // ~66 MB of entries if every run were kept
      const grown = heapMb() - before;
      expect(grown).toBeLessThan(20);
      // The newest runs are still at hand without a round trip; any run is in the store.
      const last = ids.at(-1) as string;
      expect(ledger.entries(last)).toHaveLength(11);
      const first = await ledger.getRun(ids[0] as string);
      expect(first.entries).toHaveLength(11);
      expect(first.run.task).toBe('session 0');
      if (backend.name === 'postgres') {
        expect(ledger.entries(ids.at(-FINISHED_RUNS_KEPT) as string)).toHaveLength(11);
        expect(() => ledger.entries(ids[0] as string)).toThrow(/getRun/);
      }
    } finally {
      await ledger.close();
    }
  }, 120_000);
});
