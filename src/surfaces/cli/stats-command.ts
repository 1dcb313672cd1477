import { join } from 'node:path';
import type { Command } from 'commander';
import { countForStats, parseSince, statsFromCounts } from '../../core/ledger/compute-stats.js';
import { ledgerStateDir } from '../../core/ledger/resolve-ledger-path.js';
import { EXIT } from './exit-codes.js';
import { eachLedger, knownLedgerPaths } from './known-ledgers.js';
import { ledgerNamed, ledgerPathFor } from './open-ledger.js';
import { statsContributorsFor } from './stats-contributors.js';

function list(title: string, counts: Record<string, number>): string[] {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return [`${title}: none`];
  return [`${title}:`, ...entries.map(([key, count]) => `  ${key.padEnd(40)} ${count}`)];
}

function percent(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

export default async function statsCommand(
  options: { since: string; json?: boolean; packModule?: string[] },
  command: Command,
): Promise<number> {
  const since = parseSince(options.since);
  const contributors = await statsContributorsFor(
    options.packModule ?? [],
    (command.optsWithGlobals() as { surfaceModule?: string[] }).surfaceModule ?? [],
  );
  // The ledgers `tally runs` lists (issue 23, finding 6): --ledger/TALLY_LEDGER names one,
  // else this project's and every ledger of this user's.
  const paths = knownLedgerPaths(command);
  if (paths.length === 0) {
    const where = ledgerNamed(command) ? `at ${ledgerPathFor(command)}` : 'of yours';
    process.stdout.write(`No ledger ${where} yet: nothing to count.\n`);
    return EXIT.ok;
  }
  const sharedLog = process.env.TALLY_FAIL_OPEN_LOG;
  const logsCounted = new Set<string>();
  const counts = await eachLedger(paths, async (ledger) => {
    // Each ledger's own fail-open log beside it, unless one log is set for all: read once.
    const log = sharedLog ?? join(ledgerStateDir(ledger.path), 'fail-open.jsonl');
    const ledgerCounts = await countForStats(ledger, since, {
      failOpenLog: log,
      logCounted: logsCounted.has(log),
      contributors,
    });
    logsCounted.add(log);
    return ledgerCounts;
  });
  const stats = statsFromCounts(counts, since, contributors);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
    return EXIT.ok;
  }
  const across = paths.length > 1 ? ` (in ${paths.length} ledgers)` : '';
  const lines = [
    `Runs since ${since}: ${stats.runs}${across}`,
    ...list('Ending reasons', stats.endingReasons),
  ];
  lines.push('Verified success by agent:');
  for (const [agent, figures] of Object.entries(stats.statusByAgent)) {
    lines.push(
      `  ${agent.padEnd(20)} ${percent(figures.successRate)} (${figures.success} success, ${figures.partial} partial, ${figures.failed} failed, ${figures.open} open)`,
    );
  }
  lines.push(
    `Recovery rate (nudged runs that still finished verified): ${percent(stats.recovery.rate)} (${stats.recovery.finishedAfterNudge}/${stats.recovery.nudgedRuns})`,
    ...list('Guard fires', stats.guardFires),
    ...list('Gate fires', stats.gateFires),
  );
  const days = Object.entries(stats.rejectionsPerDay);
  lines.push(days.length === 0 ? 'Rejections per day: none' : 'Rejections per day:');
  for (const [day, codes] of days) {
    lines.push(
      `  ${day}  ${Object.entries(codes)
        .map(([code, count]) => `${code} ${count}`)
        .join(', ')}`,
    );
  }
  lines.push(...list('Fail-opens by why', stats.failOpensByWhy));
  // Each contributor's section, where it counted something.
  for (const contributor of contributors)
    if (stats[contributor.name] !== undefined) lines.push(...contributor.lines(stats[contributor.name]));
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
