import type { Command } from 'commander';
import { EXIT } from './exit-codes.js';
import { formatTable, truncate } from './format-table.js';
import { knownLedgerPaths, listRunsAcross } from './known-ledgers.js';
import { ledgerLabel, ledgerNamed, ledgerPathFor } from './open-ledger.js';

/** `tally runs`: runs of every ledger this user's Tally wrote (or of the one --ledger names), read-only. */
export default async function runsCommand(
  options: { limit: string; agent?: string; json?: boolean },
  command: Command,
): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    process.stderr.write(`tally: --limit must be a whole number of at least 1, got "${options.limit}".\n`);
    return EXIT.usage;
  }
  const runs = await listRunsAcross(knownLedgerPaths(command), {
    limit,
    ...(options.agent ? { agent: options.agent } : {}),
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return EXIT.ok;
  }
  if (runs.length === 0) {
    const where = ledgerNamed(command) ? ledgerLabel(ledgerPathFor(command)) : 'any ledger of yours';
    process.stdout.write(
      `No runs in ${where} yet. Runs appear here after an agent runs (try \`tally demo\`).\n`,
    );
    return EXIT.ok;
  }
  const rows = runs.map((run) => [
    run.id,
    run.agent,
    run.project.length > 32 ? `…${run.project.slice(-31)}` : run.project, // the tail names it
    run.startedAt.replace('T', ' ').slice(0, 19),
    run.endingReason ?? 'open',
    run.status ?? '-',
    String(run.toolCalls),
    truncate(run.task, 60),
  ]);
  process.stdout.write(
    `${formatTable(['RUN', 'AGENT', 'PROJECT', 'STARTED', 'ENDING', 'STATUS', 'TOOLS', 'TASK'], rows)}\n`,
  );
  return EXIT.ok;
}
