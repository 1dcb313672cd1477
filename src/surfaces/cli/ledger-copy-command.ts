import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { LedgerError, TallyError } from '../../core/errors.js';
import { type Ledger, openLedger } from '../../core/ledger/ledger.js';
import { isPostgresUrl } from '../../core/ledger/postgres-url.js';
import { EXIT } from './exit-codes.js';
import { ledgerLabel } from './open-ledger.js';

/** A ledger named on the command line: a postgres:// URL as it is, a file against the working directory. */
function target(value: string): string {
  return isPostgresUrl(value) ? value.trim() : resolve(value);
}

/**
 * `tally ledger copy FROM TO`: every run of FROM, with its entries as stored (sequence numbers,
 * times, JSON text), into TO — SQLite into PostgreSQL or back. A run or entry already in TO is
 * skipped, so copying twice adds nothing and an interrupted copy is finished by running it again.
 */
export default async function ledgerCopyCommand(
  fromArg: string,
  toArg: string,
  options: { json?: boolean },
  _command: Command,
): Promise<number> {
  const from = target(fromArg);
  const to = target(toArg);
  if (from === to)
    throw new TallyError('LEDGER_COPY_SAME', `${ledgerLabel(from)} is both FROM and TO: nothing to copy.`);
  if (!isPostgresUrl(from) && !existsSync(from))
    throw new LedgerError(
      'LEDGER_UNAVAILABLE',
      `No ledger at ${from}. Name an existing ledger file or a postgres:// URL as FROM.`,
      { path: from },
    );
  const source = await openLedger(from, { readonly: true });
  let destination: Ledger | undefined;
  const totals = { runs: 0, entries: 0, runsAdded: 0, entriesAdded: 0 };
  try {
    destination = await openLedger(to);
    for await (const batch of source.exportRuns()) {
      const added = await destination.importRuns(batch);
      totals.runs += batch.length;
      totals.entries += batch.reduce((sum, run) => sum + run.entries.length, 0);
      totals.runsAdded += added.runs;
      totals.entriesAdded += added.entries;
    }
  } finally {
    await destination?.close();
    await source.close();
  }
  const labels = { from: ledgerLabel(from), to: ledgerLabel(to) };
  if (options.json) process.stdout.write(`${JSON.stringify({ ...labels, ...totals }, null, 2)}\n`);
  else
    process.stdout.write(
      `Copied ${labels.from} → ${labels.to}: ${totals.runsAdded} of ${totals.runs} runs and ${totals.entriesAdded} of ${totals.entries} entries added (the rest were there already).\n`,
    );
  return EXIT.ok;
}
