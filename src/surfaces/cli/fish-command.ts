import type { Command } from 'commander';
import { prepareData } from '../../agents/fisherman/prepare-data.js';
import { EXIT } from './exit-codes.js';
import { type FishFlags, headersFrom, loginFrom } from './fish-options.js';
import { formatFishResult } from './format-fish.js';
import { openLedgerFor } from './open-ledger.js';

export default async function fishCommand(
  request: string,
  options: FishFlags,
  command: Command,
): Promise<number> {
  const ledger = openLedgerFor(command);
  try {
    const headers = headersFrom(options.header);
    const result = await prepareData({
      request,
      ledger,
      captures: options.captures ?? [],
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.scope ? { scope: options.scope } : {}),
      ...loginFrom(options.login),
      ...(headers ? { headers } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.allowDelete ? { allowDelete: true } : {}),
    });
    process.stdout.write(
      options.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatFishResult(result)}\n`,
    );
    return result.status === 'success' ? EXIT.ok : EXIT.notMet;
  } finally {
    ledger.close();
  }
}
