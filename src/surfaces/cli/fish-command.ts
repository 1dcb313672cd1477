import { resolve } from 'node:path';
import type { Command } from 'commander';
import { parseEmit, writeEmitted } from '../../agents/fisherman/emit/write-emitted.js';
import { type PrepareDataResult, prepareData } from '../../agents/fisherman/prepare-data.js';
import { errorMessage } from '../../core/errors.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { requireRecorded, usingLedger } from '../require-recorded.js';
import { afterRunWarning } from './after-run.js';
import { EXIT } from './exit-codes.js';
import { type FishFlags, headersFrom, loginFrom } from './fish-options.js';
import { formatFishResult } from './format-fish.js';
import { withInterrupt } from './interrupt.js';
import { ledgerPathFor, openLedgerFor } from './open-ledger.js';
import { observeRunsWith, runSurfacesOf } from './progress/observe-runs.js';

/** `--emit` after the run: a file that cannot be written is a warning, never the loss of the result. */
function emitAfterRun(
  values: string[],
  result: PrepareDataResult,
  ledger: Ledger,
  failOpenLog: string,
): { line?: string; warning?: string } {
  try {
    return { line: writeEmitted(values, result, ledger) };
  } catch (error) {
    return { warning: afterRunWarning(failOpenLog, result.runId, `--emit failed: ${errorMessage(error)}`) };
  }
}

export default async function fishCommand(
  request: string,
  options: FishFlags,
  command: Command,
): Promise<number> {
  if (options.emit) parseEmit(options.emit);
  const ledger = await openLedgerFor(command);
  return await usingLedger(ledger, async () => {
    const headers = headersFrom(options.header);
    const surfaces = runSurfacesOf(command, ledgerPathFor(command));
    return await withInterrupt(async (interrupt) => {
      // The observer is handed to the run, not scoped (see PrepareDataOptions.onEvent).
      const ran = await observeRunsWith(surfaces, (onEvent) =>
        prepareData({
          request,
          ledger,
          captures: options.captures ?? [],
          ...(options.spec ? { specs: options.spec } : {}),
          ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
          ...(options.scope ? { scope: options.scope } : {}),
          ...loginFrom(options.login),
          ...(headers ? { headers } : {}),
          ...(options.model ? { model: options.model } : {}),
          ...(options.allowDelete ? { allowDelete: true } : {}),
          ...(options.concurrency ? { concurrency: Number(options.concurrency) } : {}),
          // The project's recipes live beside its ledger default: .tally/ in the working directory.
          ...(options.recipes === false ? {} : { recipes: resolve('.tally', 'recipes') }),
          signal: interrupt.signal,
          graceMs: interrupt.graceMs,
          ...(onEvent ? { onEvent } : {}),
        }),
      );
      // The ledger has the run, or its outcome is not presented (the ledger is the truth).
      await requireRecorded(ledger, [ran.runId]);
      const interrupted = interrupt.received() !== undefined;
      // Nothing is emitted for an interrupted run: its items are to be cleaned up, not built on.
      const emitted =
        options.emit && !interrupted ? emitAfterRun(options.emit, ran, ledger, surfaces.failOpenLog) : {};
      const warnings = [...(ran.warnings ?? []), ...(emitted.warning ? [emitted.warning] : [])];
      const result: PrepareDataResult = { ...ran, ...(warnings.length > 0 ? { warnings } : {}) };
      process.stdout.write(
        options.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatFishResult(result)}\n`,
      );
      // Whatever this run made stays in the app until it is cleaned up: say how, every time.
      // After an interrupt, creates still in flight may exist too: cleanup finds them by the marker.
      if (!options.json && (result.verified.length > 0 || interrupted))
        process.stdout.write(`To undo: tally fish cleanup ${result.runId}\n`);
      if (!options.json && emitted.line) process.stdout.write(`${emitted.line}\n`);
      if (!options.json) for (const warning of warnings) process.stderr.write(`tally: warning: ${warning}\n`);
      return result.status === 'success' && !emitted.warning ? EXIT.ok : EXIT.notMet;
    });
  });
}
