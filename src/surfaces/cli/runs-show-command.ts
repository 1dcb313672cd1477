import type { Command } from 'commander';
import { RunNotFoundError } from '../../core/errors.js';
import { EXIT } from './exit-codes.js';
import { formatRun } from './format-run.js';
import { ledgerPathFor, openExistingLedgerFor } from './open-ledger.js';

export default async function runsShowCommand(
  runId: string,
  options: { json?: boolean; full?: boolean },
  command: Command,
): Promise<number> {
  const ledger = openExistingLedgerFor(command);
  if (!ledger) throw new RunNotFoundError(runId, ledgerPathFor(command));
  try {
    const record = ledger.getRun(runId);
    // `runs` has its own --json, which commander may hand to the parent: accept either.
    const json = options.json || command.optsWithGlobals().json;
    process.stdout.write(
      json
        ? `${JSON.stringify(record, null, 2)}\n`
        : `${formatRun(record, { full: Boolean(options.full) })}\n`,
    );
    return EXIT.ok;
  } finally {
    ledger.close();
  }
}
