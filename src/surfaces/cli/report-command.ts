import { resolve } from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomicStreamed } from '../../core/io/atomic-write-streamed.js';
import { runEntryPages } from '../../core/ledger/run-pages.js';
import { RunSummaryFold } from '../../core/run-summary.js';
import { REPORT_FOOT, reportHead, timelineRow } from '../report/render-report.js';
import { EXIT } from './exit-codes.js';
import { withRunLedger } from './known-ledgers.js';

/**
 * `tally report RUN [--out FILE]`: a self-contained HTML report of one run. Read twice a page
 * at a time — first what the summary at the top needs, then the timeline, written as it is
 * read — so a run of any length costs one page of memory; the file appears whole or not at
 * all (written beside FILE under a temporary name, then renamed).
 */
export default async function reportCommand(
  runId: string,
  options: { out?: string },
  command: Command,
): Promise<number> {
  // Security: a run id comes from a ledger anyone can edit; as a file name it keeps only what a
  // run id Tally makes holds (`../../x` must not put the report outside this folder).
  const out = resolve(options.out ?? `tally-report-${runId.replace(/[^A-Za-z0-9._-]/g, '_')}.html`);
  // Any ledger `tally runs` lists (read-only), unless --ledger or TALLY_LEDGER names one: as `runs show`.
  await withRunLedger(command, runId, async (ledger) => {
    const run = await ledger.getRunInfo(runId);
    // The temporary file is opened before the run is read: a folder that does not exist fails
    // at once, named as the user wrote it.
    await writeFileAtomicStreamed(
      out,
      async (write) => {
        const summary = new RunSummaryFold();
        let count = 0;
        for await (const page of runEntryPages(ledger, runId)) {
          count += page.length;
          for (const entry of page) summary.add(entry);
        }
        write(reportHead(run, summary.result(), count));
        // The second pass stops at the count the summary was made from: entries appended since
        // (a run still going) belong to a later report.
        let left = count;
        let separator = '';
        for await (const page of runEntryPages(ledger, runId)) {
          if (left === 0) break;
          const rows = page.slice(0, left);
          left -= rows.length;
          write(`${separator}${rows.map(timelineRow).join('\n')}`);
          separator = '\n';
        }
        write(REPORT_FOOT);
      },
      { mode: 0o644 },
    );
  });
  process.stdout.write(`Wrote ${out}\n`);
  return EXIT.ok;
}
