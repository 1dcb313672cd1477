import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { Ledger } from '../../core/ledger/ledger.js';
import { resolveLedgerPath } from '../../core/ledger/resolve-ledger-path.js';
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

/** For commands that record runs: created when missing, and added to the user's list of ledgers. */
export function openLedgerAt(path: string): Ledger {
  const ledger = Ledger.open(path);
  registerLedger(path);
  return ledger;
}

/** The ledger named by --ledger, TALLY_LEDGER, or the default (in `projectDir` when given); created when missing. */
export function openLedgerFor(command: Command, projectDir?: string): Ledger {
  return openLedgerAt(ledgerPathFor(command, projectDir));
}

/** For read-only commands: undefined when it does not exist; opened so that nothing is written or created. */
export function openExistingLedgerAt(path: string): Ledger | undefined {
  return existsSync(path) ? Ledger.open(path, { readonly: true }) : undefined;
}

/** The ledger named by --ledger, TALLY_LEDGER, or the default, read-only (see `openExistingLedgerAt`). */
export function openExistingLedgerFor(command: Command): Ledger | undefined {
  return openExistingLedgerAt(ledgerPathFor(command));
}
