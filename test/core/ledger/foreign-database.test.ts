import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { runTally, tempDir } from '../../helpers.js';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Another program's SQLite database: one table of its own, one row. */
function appDatabase(): string {
  const path = join(tempDir('tally-foreign-'), 'app.db');
  const database = openSqlite(path);
  database.exec("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ada')");
  database.close();
  return path;
}

describe("a --ledger that names another program's database is refused, and left as it was", () => {
  it('opening it to write: LEDGER_UNAVAILABLE naming its tables; not a byte changed, no journal beside it', () => {
    const path = appDatabase();
    const before = sha256(path);
    expect(() => Ledger.open(path)).toThrow(
      /is not a Tally ledger: it is another program's database \(its tables: users\)/,
    );
    expect(sha256(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('the CLI: ledger vacuum, purge and runs exit 3 and change nothing; runs on an empty file exits 3 with words, not a bug', async () => {
    const path = appDatabase();
    const before = sha256(path);
    for (const args of [['ledger', 'vacuum'], ['ledger', 'purge', '--before', '1d'], ['runs']]) {
      const run = await runTally(['--ledger', path, ...args]);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(3);
      expect(run.stderr).toMatch(/not a Tally ledger/);
    }
    expect(sha256(path)).toBe(before);
    const empty = join(tempDir(), 'zero.db');
    writeFileSync(empty, '');
    const runs = await runTally(['--ledger', empty, 'runs']);
    expect(runs.code, runs.stderr).toBe(3);
    expect(runs.stderr).toMatch(/not a Tally ledger: it is an empty database/);
    expect(runs.stderr).not.toMatch(/bug in Tally/);
  });
});
