import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { renderReport } from '../report/render-report.js';
import { EXIT } from './exit-codes.js';
import { findRun } from './known-ledgers.js';

/** `tally report RUN [--out FILE]`: a self-contained HTML report of one run. */
export default async function reportCommand(
  runId: string,
  options: { out?: string },
  command: Command,
): Promise<number> {
  // Any ledger `tally runs` lists (read-only), unless --ledger or TALLY_LEDGER names one: as `runs show`.
  const html = renderReport(await findRun(command, runId));
  const out = resolve(options.out ?? `tally-report-${runId}.html`);
  writeFileSync(out, html);
  process.stdout.write(`Wrote ${out}\n`);
  return EXIT.ok;
}
