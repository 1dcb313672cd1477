import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RunNotFoundError } from '../../core/errors.js';
import { renderReport } from '../report/render-report.js';
import { EXIT } from './exit-codes.js';
import { ledgerPathFor, openExistingLedgerFor } from './open-ledger.js';

/** `tally report RUN [--out FILE]`: a self-contained HTML report of one run. */
export default async function reportCommand(
  runId: string,
  options: { out?: string },
  command: Command,
): Promise<number> {
  const ledger = openExistingLedgerFor(command);
  if (!ledger) throw new RunNotFoundError(runId, ledgerPathFor(command));
  try {
    const html = renderReport(ledger.getRun(runId));
    const out = resolve(options.out ?? `tally-report-${runId}.html`);
    writeFileSync(out, html);
    process.stdout.write(`Wrote ${out}\n`);
    return EXIT.ok;
  } finally {
    ledger.close();
  }
}
