import type { Command } from 'commander';
import { cleanupRun } from '../../agents/fisherman/cleanup-run.js';
import { EXIT } from './exit-codes.js';
import { type FishFlags, headersFrom, loginFrom } from './fish-options.js';
import { formatTable } from './format-table.js';
import { openLedgerFor } from './open-ledger.js';

export default async function fishCleanupCommand(
  runId: string,
  ownOptions: FishFlags,
  command: Command,
): Promise<number> {
  // `fish cleanup RUN --json --login x`: commander hands flags after the subcommand that
  // `fish` also declares to `fish`; they were written for cleanup, so they count here.
  const options: FishFlags = { ...(command.parent?.opts() as FishFlags), ...ownOptions };
  const ledger = openLedgerFor(command);
  try {
    const meta = ledger.getRun(runId).run.meta as { baseUrl?: string; captures?: string[]; login?: string };
    const headers = headersFrom(options.header);
    const result = await cleanupRun({
      runId,
      ledger,
      captures: options.captures ?? meta.captures ?? [],
      ...((options.baseUrl ?? meta.baseUrl) ? { baseUrl: (options.baseUrl ?? meta.baseUrl) as string } : {}),
      ...loginFrom(options.login ?? meta.login),
      ...(headers ? { headers } : {}),
    });
    if (options.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const rows = result.deletions.map((deletion) => [
        deletion.type,
        deletion.id,
        `DELETE ${deletion.path}`,
        String(deletion.status ?? '-'),
        String(deletion.confirmStatus ?? deletion.beforeStatus ?? '-'),
        deletion.outcome === 'deleted'
          ? 'deleted'
          : deletion.outcome === 'already-gone'
            ? 'already gone'
            : `NOT confirmed${deletion.why ? `: ${deletion.why}` : ''}`,
      ]);
      process.stdout.write(
        `${formatTable(['TYPE', 'ID', 'REQUEST', 'STATUS', 'READ BACK', 'RESULT'], rows)}\n\n${result.summary}\ncleanup run ${result.runId}\n`,
      );
    }
    return result.status === 'success' && result.deletions.every((deletion) => deletion.ok)
      ? EXIT.ok
      : EXIT.notMet;
  } finally {
    ledger.close();
  }
}
