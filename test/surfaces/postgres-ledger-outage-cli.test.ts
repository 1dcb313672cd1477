// A command that runs an agent while its PostgreSQL ledger stops answering: the run's outcome is
// not presented as success when its entries could not be recorded (the ledger is the truth).
import { expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { describePostgres } from '../support/describe-postgres.js';
import { startPostgresProxy } from '../support/postgres-proxy.js';

describePostgres('tally demo --json when the PostgreSQL ledger stops answering mid-run', (server) => {
  it('exits 3 with one JSON document: LEDGER_BUSY, the entries NOT written, the run named; no success', async () => {
    const url = server.createDatabase('outage_cli');
    // The schema is made through the proxy; from the 2nd group commit on, nothing answers.
    const proxy = await startPostgresProxy(url, { hole: 2 });
    try {
      const demo = await runTally(['demo', '--json', '--ledger', proxy.url], { cwd: tempDir() });
      expect(demo.code, demo.stderr).toBe(3);
      // One document, the error: not the run's result followed by an error.
      const document = JSON.parse(demo.stdout) as { error?: { code: string; message: string } };
      expect(document.error?.code).toBe('LEDGER_BUSY');
      expect(document.error?.message).toContain('NOT written');
      expect(document.error?.message).toMatch(/run run_[0-9A-Z]+/);
      expect(document.error?.message).not.toMatch(/will be written/);
      expect(demo.stdout).not.toContain('"status": "success"');
    } finally {
      await proxy.close();
    }
  }, 120_000);

  // A silent server (no reset: SIGSTOPped, partitioned): closing after the outage was the busy
  // limit again for the last commit, then again for the pool's end (~30 s in all). It is one
  // short last try (CLOSE_AFTER_OUTAGE_MS) with the connections cut. A generous bound: ~13 s
  // now, ~31 s before.
  it('ends well within the time the busy limit thrice would take', async () => {
    const url = server.createDatabase('outage_cli_bounded');
    const proxy = await startPostgresProxy(url, { hole: 2 });
    try {
      const started = Date.now();
      const demo = await runTally(['demo', '--json', '--ledger', proxy.url], { cwd: tempDir() });
      const took = Date.now() - started;
      expect(demo.code, demo.stderr).toBe(3);
      expect(took).toBeLessThan(22_000);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
