import type { Command } from 'commander';
import { EXIT } from './exit-codes.js';
import { formatTable, truncate } from './format-table.js';
import { ledgerPathFor, openExistingLedgerFor } from './open-ledger.js';

export default async function runsCommand(
  options: { limit: string; agent?: string; json?: boolean },
  command: Command,
): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    process.stderr.write(`tally: --limit must be a whole number of at least 1, got "${options.limit}".\n`);
    return EXIT.usage;
  }
  const ledger = openExistingLedgerFor(command);
  const runs = ledger ? ledger.listRuns({ limit, ...(options.agent ? { agent: options.agent } : {}) }) : [];
  ledger?.close();
  if (options.json) {
    process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return EXIT.ok;
  }
  if (runs.length === 0) {
    process.stdout.write(
      `No runs in ${ledgerPathFor(command)} yet. Runs appear here after an agent runs (try \`npm run demo\`).\n`,
    );
    return EXIT.ok;
  }
  const rows = runs.map((run) => [
    run.id,
    run.agent,
    run.startedAt.replace('T', ' ').slice(0, 19),
    run.endingReason ?? 'open',
    run.status ?? '-',
    String(run.toolCalls),
    truncate(run.task, 60),
  ]);
  process.stdout.write(
    `${formatTable(['RUN', 'AGENT', 'STARTED', 'ENDING', 'STATUS', 'TOOLS', 'TASK'], rows)}\n`,
  );
  return EXIT.ok;
}
