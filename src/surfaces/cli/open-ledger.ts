import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { checkLedgerPath } from '../../core/ledger/check-ledger-path.js';
import { type Ledger, openLedger } from '../../core/ledger/ledger.js';
import { isPostgresUrl, redactPostgresUrl } from '../../core/ledger/postgres-url.js';
import { resolveLedgerPath } from '../../core/ledger/resolve-ledger-path.js';
import { secretEnvironmentValues } from '../../core/redact.js';
import { registerLedger } from './ledger-registry.js';

/** --ledger, TALLY_LEDGER, else `.tally/ledger.db` in `projectDir` (a command's --root) or the working directory. */
export function ledgerPathFor(command: Command, projectDir?: string): string {
  const flag = command.optsWithGlobals().ledger as string | undefined;
  return resolveLedgerPath({ ...(flag ? { flag } : {}), ...(projectDir ? { projectDir } : {}) });
}

/** Whether --ledger or TALLY_LEDGER names one ledger (then `tally runs` reads only it). */
export function ledgerNamed(command: Command): boolean {
  return Boolean(command.optsWithGlobals().ledger || process.env.TALLY_LEDGER);
}

/** A ledger's name as it may be printed: a file path, or a URL with its password removed. */
export function ledgerLabel(path: string): string {
  return isPostgresUrl(path) ? redactPostgresUrl(path) : path;
}

/**
 * For commands that record runs: created when missing, and added to the user's list of ledgers.
 * A PostgreSQL ledger is not listed: the list is a file on disk, and its URL may carry a password.
 */
export async function openLedgerAt(path: string): Promise<Ledger> {
  const ledger = await openLedger(path);
  // The credentials this process was given: a provider's error that echoes its API key, or a
  // tool's output that prints a token from the environment, is scrubbed like any known secret.
  ledger.knowSecrets(secretEnvironmentValues(process.env));
  if (ledger.backend === 'sqlite') registerLedger(path);
  return ledger;
}

/** The ledger named by --ledger, TALLY_LEDGER, or the default (in `projectDir` when given); created when missing. */
export function openLedgerFor(command: Command, projectDir?: string): Promise<Ledger> {
  return openLedgerAt(ledgerPathFor(command, projectDir));
}

/** For read-only commands: undefined when it does not exist; opened so that nothing is written or created. */
export async function openExistingLedgerAt(path: string): Promise<Ledger | undefined> {
  if (isPostgresUrl(path)) return openLedger(path, { readonly: true });
  // A symlink loop or a dangling symlink does not "exist": said as such, not read as no runs.
  checkLedgerPath(path);
  return existsSync(path) ? openLedger(path, { readonly: true }) : undefined;
}

/** The ledger named by --ledger, TALLY_LEDGER, or the default, read-only (see `openExistingLedgerAt`). */
export function openExistingLedgerFor(command: Command): Promise<Ledger | undefined> {
  return openExistingLedgerAt(ledgerPathFor(command));
}
