// A --ledger that is a symlink loop, a dangling symlink or a directory: every command says what is
// wrong and what to do, in one line, and exits 3 (LEDGER_UNAVAILABLE). Before, a read-only
// command read a loop or a dangling link as "no runs yet" (exit 0), a writer said only "unable
// to open database file", and a library caller got the driver's error.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLedgerPath, ledgerPathProblem } from '../../src/core/ledger/check-ledger-path.js';
import { openLedger } from '../../src/core/ledger/ledger.js';
import { checkLedger } from '../../src/surfaces/cli/doctor-checks.js';
import { EXIT } from '../../src/surfaces/cli/exit-codes.js';
import { runTally, tempDir } from '../helpers.js';

type Kind = 'symlink loop' | 'dangling symlink' | 'directory';

function unusable(kind: Kind): { path: string; says: RegExp } {
  const dir = tempDir();
  const path = join(dir, 'ledger.db');
  if (kind === 'symlink loop') {
    symlinkSync(path, path);
    return { path, says: /it is a symbolic link that loops/ };
  }
  if (kind === 'dangling symlink') {
    symlinkSync(join(dir, 'gone', 'ledger.db'), path);
    return { path, says: /it is a dangling symbolic link to .*gone\/ledger\.db, which does not exist/ };
  }
  mkdirSync(path);
  return { path, says: /it is a directory/ };
}

const kinds: Kind[] = ['symlink loop', 'dangling symlink', 'directory'];
const commands: [string, (root: string) => string[]][] = [
  ['runs', () => ['runs']],
  ['verify', () => ['verify', 'run_missing']],
  ['stats', () => ['stats']],
  ['ledger check', () => ['ledger', 'check']],
  ['demo', () => ['demo']],
  ['mcp', (root) => ['mcp', '--root', root]],
];

describe('--ledger that cannot be a ledger', () => {
  for (const kind of kinds)
    it.each(commands)(`${kind}: %s exits 3 with one line saying what is wrong`, async (_name, args) => {
      const { path, says } = unusable(kind);
      const run = await runTally(['--ledger', path, ...args(tempDir())], { input: '' });
      expect(run.code, run.stderr).toBe(EXIT.unavailable);
      expect(run.stderr).toMatch(says);
      expect(run.stderr).toContain(`The ledger path ${path} cannot be used`);
      expect(run.stderr).toContain('Pass --ledger (or set TALLY_LEDGER) to a ledger file');
      // One line, no stack trace.
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stdout).toBe('');
    });

  it('TALLY_LEDGER is checked the same way, and --json reports the code', async () => {
    const { path } = unusable('dangling symlink');
    const run = await runTally(['runs', '--json'], { env: { TALLY_LEDGER: path } });
    expect(run.code).toBe(EXIT.unavailable);
    expect(`${run.stdout}${run.stderr}`).toContain('LEDGER_UNAVAILABLE');
  });

  it('tally doctor names each kind as a failed ledger check (it said a loop was "not created yet")', async () => {
    for (const kind of kinds) {
      const { path, says } = unusable(kind);
      const check = await checkLedger(path);
      expect(check.ok, kind).toBe(false);
      expect(check.detail).toMatch(says);
    }
  });

  it('the library: openLedger refuses each kind with LEDGER_UNAVAILABLE, reading or writing', async () => {
    for (const kind of kinds) {
      const { path, says } = unusable(kind);
      expect(ledgerPathProblem(path)).toMatch(says);
      expect(() => checkLedgerPath(path)).toThrow(says);
      for (const readonly of [false, true])
        await expect(openLedger(path, { readonly })).rejects.toMatchObject({ code: 'LEDGER_UNAVAILABLE' });
    }
    // A path with nothing there yet, or a link to a file, is fine.
    const dir = tempDir();
    expect(ledgerPathProblem(join(dir, 'new.db'))).toBeUndefined();
    const ledger = await openLedger(join(dir, 'real.db'));
    ledger.close();
    symlinkSync(join(dir, 'real.db'), join(dir, 'link.db'));
    expect(ledgerPathProblem(join(dir, 'link.db'))).toBeUndefined();
  });
});
