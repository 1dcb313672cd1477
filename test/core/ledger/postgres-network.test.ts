// The PostgreSQL ledger when the network, not the server, fails: a connection cut after the
// server committed a group commit (the client never hears so and sends it again); a server that
// stops answering without a reset. Through a proxy on 127.0.0.1 (test/support/postgres-proxy.ts).
import { expect, it } from 'vitest';
import { openLedger } from '../../../src/core/ledger/ledger.js';
import { tempDir } from '../../helpers.js';
import { describePostgres } from '../../support/describe-postgres.js';
import { startPostgresProxy } from '../../support/postgres-proxy.js';

describePostgres('PostgreSQL ledger: the network between it and the server fails', (server) => {
  it('a group commit whose answer is lost is written once: no entry twice, one end, the stored numbering is the run’s own', async () => {
    const url = server.createDatabase('cut_after_commit');
    // The 2nd and 3rd group commits reach the server and commit; their answers never come back.
    const proxy = await startPostgresProxy(url, { cut: [2, 3] });
    const ledger = await openLedger(proxy.url, {
      busyLimitMs: 5000,
      failOpenLog: `${tempDir()}/fail-open.jsonl`,
    });
    const run = ledger.startRun({ agent: 'a', task: 't' });
    for (const name of ['first', 'second', 'third']) {
      run.append({ kind: 'tool_call', name, outcome: 'ok', data: {} });
      expect(await run.commit()).toBe(true);
    }
    run.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
    await ledger.close();
    await proxy.close();
    expect(proxy.appends()).toBeGreaterThanOrEqual(6);
    const reader = await openLedger(url);
    try {
      const { entries } = await reader.getRun(run.runId);
      expect(entries.map((entry) => [entry.seq, entry.kind, entry.name ?? null])).toEqual([
        [1, 'tool_call', 'first'],
        [2, 'tool_call', 'second'],
        [3, 'tool_call', 'third'],
        [4, 'end', null],
      ]);
      expect(await reader.check()).toEqual([]);
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('a server that stops answering (no reset) holds nothing past the busy limit: close says LEDGER_BUSY', async () => {
    const url = server.createDatabase('black_hole');
    // From the 2nd group commit on, nothing is forwarded and new connections are never answered.
    const proxy = await startPostgresProxy(url, { hole: 2 });
    try {
      const ledger = await openLedger(proxy.url, {
        busyLimitMs: 1000,
        failOpenLog: `${tempDir()}/fail-open.jsonl`,
      });
      const run = ledger.startRun({ agent: 'a', task: 't' });
      run.append({ kind: 'tool_call', name: 'first', outcome: 'ok', data: {} });
      expect(await run.commit()).toBe(true);
      run.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
      const started = Date.now();
      expect(await run.commit()).toBe(false);
      const closed = await Promise.resolve(ledger.close()).then(
        () => undefined,
        (error: unknown) => error as { code?: string; message: string },
      );
      expect(closed?.code).toBe('LEDGER_BUSY');
      // Two busy limits (the commit, then close's own try) and a margin; before, it never returned.
      expect(Date.now() - started).toBeLessThan(6000);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
