import type { Command } from 'commander';
import type { RunInfo } from '../../core/ledger/entry.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { runEntryPages } from '../../core/ledger/run-pages.js';
import { RunSummaryFold } from '../../core/run-summary.js';
import { EXIT } from './exit-codes.js';
import { entryLine, runHeadLines, runTailLines } from './format-run.js';
import { withRunLedger } from './known-ledgers.js';
import { type StreamWriter, streamWriter } from './stream-writer.js';

/**
 * `tally runs show RUN [--json] [--full]`: the run's timeline, streamed a page of entries at a
 * time — the first line comes at once and memory stays flat however long the run — then the
 * summary (net effects, unresolved intents, the ending), folded while streaming.
 */
export default async function runsShowCommand(
  runId: string,
  options: { json?: boolean; full?: boolean },
  command: Command,
): Promise<number> {
  // `runs` has its own --json, which commander may hand to the parent: accept either.
  const json = Boolean(options.json || command.optsWithGlobals().json);
  const out = streamWriter(process.stdout);
  // Any ledger `tally runs` lists (read-only), unless --ledger or TALLY_LEDGER names one.
  await withRunLedger(command, runId, async (ledger) => {
    const run = await ledger.getRunInfo(runId);
    if (json) await streamJson(out, run, ledger);
    else await streamText(out, run, ledger, Boolean(options.full));
  });
  return EXIT.ok;
}

async function streamText(out: StreamWriter, run: RunInfo, ledger: Ledger, full: boolean): Promise<void> {
  await out.write(`${runHeadLines(run).join('\n')}\n`);
  const summary = new RunSummaryFold();
  for await (const page of runEntryPages(ledger, run.id)) {
    if (out.closed) return;
    await out.write(`${page.map((entry) => entryLine(entry, full)).join('\n')}\n`);
    for (const entry of page) summary.add(entry);
  }
  await out.write(`${runTailLines(summary.result()).join('\n')}\n`);
}

/** Byte for byte what `JSON.stringify({ run, entries }, null, 2)` prints, one entry at a time. */
async function streamJson(out: StreamWriter, run: RunInfo, ledger: Ledger): Promise<void> {
  const nested = (value: unknown, depth: number) =>
    JSON.stringify(value, null, 2).replaceAll('\n', `\n${' '.repeat(depth)}`);
  await out.write(`{\n  "run": ${nested(run, 2)},\n  "entries": [`);
  let separator = '';
  for await (const page of runEntryPages(ledger, run.id)) {
    if (out.closed) return;
    await out.write(`${separator}\n    ${page.map((entry) => nested(entry, 4)).join(',\n    ')}`);
    separator = ',';
  }
  await out.write(separator ? '\n  ]\n}\n' : ']\n}\n');
}
