import { resolve } from 'node:path';
import type { Command } from 'commander';
import { parseEmit, writeEmitted } from '../../agents/fisherman/emit/write-emitted.js';
import { prepareData } from '../../agents/fisherman/prepare-data.js';
import { EXIT } from './exit-codes.js';
import { type FishFlags, headersFrom, loginFrom } from './fish-options.js';
import { formatFishResult } from './format-fish.js';
import { ledgerPathFor, openLedgerFor } from './open-ledger.js';
import { observeRuns, runSurfacesOf } from './progress/observe-runs.js';

export default async function fishCommand(
  request: string,
  options: FishFlags,
  command: Command,
): Promise<number> {
  if (options.emit) parseEmit(options.emit);
  const ledger = openLedgerFor(command);
  try {
    const headers = headersFrom(options.header);
    const result = await observeRuns(runSurfacesOf(command, ledgerPathFor(command)), () =>
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
      }),
    );
    const emitted = options.emit ? writeEmitted(options.emit, result, ledger) : undefined;
    process.stdout.write(
      options.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatFishResult(result)}\n`,
    );
    // Whatever this run made stays in the app until it is cleaned up: say how, every time.
    if (!options.json && result.verified.length > 0)
      process.stdout.write(`To undo: tally fish cleanup ${result.runId}\n`);
    if (!options.json && emitted) process.stdout.write(`${emitted}\n`);
    return result.status === 'success' ? EXIT.ok : EXIT.notMet;
  } finally {
    ledger.close();
  }
}
