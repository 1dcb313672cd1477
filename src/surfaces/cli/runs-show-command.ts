import type { Command } from 'commander';
import { EXIT } from './exit-codes.js';
import { formatRun } from './format-run.js';
import { findRun } from './known-ledgers.js';

export default async function runsShowCommand(
  runId: string,
  options: { json?: boolean; full?: boolean },
  command: Command,
): Promise<number> {
  // Any ledger `tally runs` lists (read-only), unless --ledger or TALLY_LEDGER names one.
  const record = await findRun(command, runId);
  // `runs` has its own --json, which commander may hand to the parent: accept either.
  const json = options.json || command.optsWithGlobals().json;
  process.stdout.write(
    json ? `${JSON.stringify(record, null, 2)}\n` : `${formatRun(record, { full: Boolean(options.full) })}\n`,
  );
  return EXIT.ok;
}
