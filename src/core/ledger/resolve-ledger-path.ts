import { dirname, resolve } from 'node:path';
import { TallyError } from '../errors.js';
import { isPostgresUrl, notALedgerPath } from './postgres-url.js';

/**
 * `--ledger PATH` wins, then `TALLY_LEDGER`, then `.tally/ledger.db` under the project
 * directory (by default the working directory). Flags and env resolve against the working directory;
 * a postgres:// URL is kept as it is (it names a database, not a file).
 */
export function resolveLedgerPath(
  options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string; projectDir?: string } = {},
): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const named = options.flag || env.TALLY_LEDGER;
  if (named) {
    // A mistyped URL is refused, never made into a folder named after it (its password with it).
    const problem = notALedgerPath(named);
    if (problem) throw new TallyError('LEDGER_PATH_INVALID', problem);
    return isPostgresUrl(named) ? named.trim() : resolve(cwd, named);
  }
  return resolve(cwd, options.projectDir ?? '.', '.tally', 'ledger.db');
}

/**
 * The folder that holds a ledger's neighbours (fail-open log, session markers, locks): the file's own
 * folder, or for a PostgreSQL ledger this project's `.tally/` (a database has no folder).
 */
export function ledgerStateDir(ledgerPath: string, cwd: string = process.cwd()): string {
  return isPostgresUrl(ledgerPath) ? resolve(cwd, '.tally') : dirname(ledgerPath);
}
