import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { Ledger } from '../../core/ledger/ledger.js';
import { resolveLedgerPath } from '../../core/ledger/resolve-ledger-path.js';

/** --ledger, TALLY_LEDGER, else `.tally/ledger.db` in `projectDir` (a command's --root) or the working directory. */
export function ledgerPathFor(command: Command, projectDir?: string): string {
  const flag = command.optsWithGlobals().ledger as string | undefined;
  return resolveLedgerPath({ ...(flag ? { flag } : {}), ...(projectDir ? { projectDir } : {}) });
}

/** The ledger named by --ledger, TALLY_LEDGER, or the default; created when missing. */
export function openLedgerFor(command: Command): Ledger {
  return Ledger.open(ledgerPathFor(command));
}

/** For read-only commands: undefined when no ledger exists yet (reading must not create one). */
export function openExistingLedgerFor(command: Command): Ledger | undefined {
  const path = ledgerPathFor(command);
  return existsSync(path) ? Ledger.open(path) : undefined;
}
