import { expect, it } from 'vitest';
import { isTallyError } from '../../../src/core/errors.js';
import { openLedger } from '../../../src/core/ledger/ledger.js';
import { runTally, tempDir } from '../../helpers.js';
import { describePostgres } from '../../support/describe-postgres.js';

async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** The tables of the database's `public` schema, by name. */
const tablesOf = async (url: string) =>
  (await query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).map(
    (row) => row.tablename,
  );

describePostgres(
  "a --ledger postgres:// URL that names another program's database is refused, and left as it was",
  (server) => {
    /** An app's database: its own tables, one row. */
    async function appDatabase(name: string): Promise<string> {
      const url = server.createDatabase(name);
      await query(
        url,
        "CREATE TABLE users (name TEXT); CREATE TABLE orders (id INT); INSERT INTO users VALUES ('ada')",
      );
      return url;
    }

    it("opening it: LEDGER_UNAVAILABLE naming its tables and what to do; no table of Tally's created", async () => {
      const url = await appDatabase('shop');
      const failure = await openLedger(url).then(
        async (ledger) => {
          await ledger.close();
          throw new Error('the ledger opened');
        },
        (error: unknown) => error,
      );
      expect(isTallyError(failure) && failure.code).toBe('LEDGER_UNAVAILABLE');
      expect((failure as Error).message).toMatch(
        /\/shop is not a Tally ledger: its schema "public" holds another program's tables \(orders, users\)\. Tally changed nothing in it\. Pass --ledger with a database of its own/,
      );
      expect(await tablesOf(url)).toEqual(['orders', 'users']);
      expect(await query(url, 'SELECT name FROM users')).toEqual([{ name: 'ada' }]);
    });

    it('the CLI: runs and ledger vacuum exit 3 and create nothing', async () => {
      const url = await appDatabase('shop_cli');
      for (const args of [['runs'], ['ledger', 'vacuum']]) {
        const run = await runTally(['--ledger', url, ...args], { cwd: tempDir() });
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(3);
        expect(run.stderr).toMatch(
          /not a Tally ledger: its schema "public" holds another program's tables \(orders, users\)/,
        );
      }
      expect(await tablesOf(url)).toEqual(['orders', 'users']);
    });

    it("an empty database becomes a ledger, and Tally's own database opens again with its runs", async () => {
      const url = server.createDatabase('fresh');
      const first = await openLedger(url);
      const run = first.startRun({ agent: 'a', task: 'first' });
      run.append({ kind: 'end', outcome: 'finished', data: { status: 'success', summary: 's' } });
      expect(await run.commit()).toBe(true);
      await first.close();
      expect(await tablesOf(url)).toEqual(expect.arrayContaining(['entries', 'runs', 'tally_schema']));
      const again = await openLedger(url);
      try {
        expect((await again.listRuns()).map((listed) => listed.id)).toEqual([run.runId]);
      } finally {
        await again.close();
      }
    });
  },
);
