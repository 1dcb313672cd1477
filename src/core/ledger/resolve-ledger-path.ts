import { resolve } from 'node:path';

/**
 * `--ledger PATH` wins, then `TALLY_LEDGER`, then `.tally/ledger.db` under the project
 * directory (by default the working directory). Flags and env resolve against the working directory.
 */
export function resolveLedgerPath(
  options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string; projectDir?: string } = {},
): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  if (options.flag) return resolve(cwd, options.flag);
  if (env.TALLY_LEDGER) return resolve(cwd, env.TALLY_LEDGER);
  return resolve(cwd, options.projectDir ?? '.', '.tally', 'ledger.db');
}
