// A PostgreSQL URL typed with one slash (`postgresql:/app:pw@host/db`) is not a file path: taken
// as one, it became a SQLite file in a folder named after the URL, and its password was printed
// in the ledger's path and stored in the user's list of ledgers.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';

const PASSWORD = 'TypoPw77';

describe('a ledger URL with a typo', () => {
  for (const ledger of [
    `postgresql:/app:${PASSWORD}@127.0.0.1:1/t1`,
    `postgres:app:${PASSWORD}@127.0.0.1:1/t1`,
    `mysql://app:${PASSWORD}@127.0.0.1:1/t1`,
  ])
    it(`${ledger.split(':')[0]}: a usage error naming the right form, the password never shown or stored`, async () => {
      const cwd = tempDir();
      const state = tempDir('tally-state-');
      const run = await runTally(['--ledger', ledger, 'runs'], { cwd, env: { XDG_STATE_HOME: state } });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('postgres://USER:PASSWORD@HOST:PORT/DATABASE');
      expect(run.stdout + run.stderr).not.toContain(PASSWORD);
      const demo = await runTally(['--ledger', ledger, 'demo', '--json'], {
        cwd,
        env: { XDG_STATE_HOME: state },
      });
      expect(demo.code).toBe(2);
      expect(JSON.parse(demo.stdout)).toMatchObject({ error: { code: 'LEDGER_PATH_INVALID' } });
      expect(demo.stdout + demo.stderr).not.toContain(PASSWORD);
      // Nothing made beside the project, nothing in the user's list of ledgers.
      expect(readdirSync(cwd)).toEqual([]);
      expect(existsSync(join(state, 'tally', 'ledgers.jsonl'))).toBe(false);
    }, 60_000);
});
