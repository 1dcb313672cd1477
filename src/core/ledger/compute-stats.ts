import { existsSync, readFileSync } from 'node:fs';
import { parseWhen } from '../parse-when.js';
import type { Ledger } from './ledger.js';
import { type LedgerCounts, mergeCounts } from './ledger-counts.js';
import type { AnyStatsContributor, StatsSource } from './stats-contributor.js';

export interface LedgerStats {
  since: string;
  runs: number;
  endingReasons: Record<string, number>;
  statusByAgent: Record<
    string,
    {
      runs: number;
      success: number;
      partial: number;
      failed: number;
      open: number;
      successRate: number | null;
    }
  >;
  /** Runs where a guard nudged the model, and how many of those still ended with a verified finish. */
  recovery: { nudgedRuns: number; finishedAfterNudge: number; rate: number | null };
  guardFires: Record<string, number>;
  gateFires: Record<string, number>;
  rejectionsPerDay: Record<string, Record<string, number>>;
  failOpensByWhy: Record<string, number>;
  /** Each stats contributor's figures, by its name (`chatTurns`); absent where it counted nothing. */
  [contribution: string]: unknown;
}

/** Core's own keys of `LedgerStats`: a contributor's figures may not take one of them. */
export const CORE_STATS_KEYS: readonly string[] = [
  'since',
  'runs',
  'endingReasons',
  'statusByAgent',
  'recovery',
  'guardFires',
  'gateFires',
  'rejectionsPerDay',
  'failOpensByWhy',
];

function bump(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}

/** Parses `7d`, `12h`, `30m` or an ISO date into an ISO timestamp. */
export function parseSince(value: string, now: number = Date.now()): string {
  const since = parseWhen(value, now);
  if (since === undefined)
    throw new RangeError(`--since "${value}" is neither a duration (7d, 12h, 30m) nor a date (2026-11-01).`);
  return since;
}

export interface CountOptions {
  /** A fail-open log: fail-opens come from it, not the ledger (see `countForStats`). */
  failOpenLog?: string;
  /** The log is shared by several ledgers and was counted with another one already. */
  logCounted?: boolean;
  /** The packs' and agents' shares of the stats, each asked for its own counts. */
  contributors?: readonly AnyStatsContributor[];
}

/** Stats of one ledger since `since` (an ISO time); see `statsFromCounts`. */
export async function computeStats(
  ledger: Ledger,
  since: string,
  options: Omit<CountOptions, 'logCounted'> = {},
): Promise<LedgerStats> {
  return statsFromCounts([await countForStats(ledger, since, options)], since, options.contributors);
}

/**
 * One ledger's counts since `since`: core's own, then each contributor's. With a fail-open log,
 * fail-opens come from it: it is the complete numerator (hooks record there even when no run is
 * active) — and count nothing when `logCounted` says a log shared by several ledgers was counted
 * with another one already.
 */
export async function countForStats(
  ledger: Ledger,
  since: string,
  options: CountOptions = {},
): Promise<LedgerCounts> {
  const counts: LedgerCounts = { ...(await ledger.counts(since)) };
  const source: StatsSource = {
    backend: ledger.backend,
    since,
    rows: async (sql) => ledger.statsRows(sql, since),
  };
  for (const contributor of options.contributors ?? []) {
    const contributed = await contributor.count(source);
    if (contributed !== undefined)
      counts.contributed = { ...counts.contributed, [contributor.name]: contributed };
  }
  if (!options.failOpenLog) return counts;
  return {
    ...counts,
    failOpensByWhy: options.logCounted ? {} : failOpensInLog(options.failOpenLog, since),
  };
}

/**
 * Stats from the counts of one or more ledgers (`tally stats` counts every ledger `tally runs`
 * lists): the counts add up, and the rates come from the sums.
 */
export function statsFromCounts(
  all: LedgerCounts[],
  since: string,
  contributors: readonly AnyStatsContributor[] = [],
): LedgerStats {
  const counts = mergeCounts(all);
  const stats: LedgerStats = {
    since,
    runs: 0,
    endingReasons: {},
    statusByAgent: {},
    recovery: {
      nudgedRuns: counts.nudgedRuns,
      finishedAfterNudge: counts.finishedAfterNudge,
      rate: counts.nudgedRuns > 0 ? counts.finishedAfterNudge / counts.nudgedRuns : null,
    },
    guardFires: counts.guardFires,
    gateFires: counts.gateFires,
    rejectionsPerDay: counts.rejectionsPerDay,
    failOpensByWhy: counts.failOpensByWhy,
  };
  for (const group of counts.runs) {
    stats.runs += group.runs;
    bump(stats.endingReasons, group.endingReason ?? 'open', group.runs);
    stats.statusByAgent[group.agent] ??= {
      runs: 0,
      success: 0,
      partial: 0,
      failed: 0,
      open: 0,
      successRate: null,
    };
    const agent = stats.statusByAgent[group.agent] as LedgerStats['statusByAgent'][string];
    agent.runs += group.runs;
    const status = (group.status ?? 'open') as 'success' | 'partial' | 'failed' | 'open';
    agent[status] += group.runs;
  }
  for (const agent of Object.values(stats.statusByAgent)) {
    const ended = agent.runs - agent.open;
    agent.successRate = ended > 0 ? agent.success / ended : null;
  }
  // Each contributor's counts of every ledger, added up, then its figures from the sums.
  for (const contributor of contributors) {
    const mine = all.flatMap((one) =>
      one.contributed && contributor.name in one.contributed ? [one.contributed[contributor.name]] : [],
    );
    if (mine.length === 0) continue;
    stats[contributor.name] = contributor.figures(mine.reduce((into, from) => contributor.merge(into, from)));
  }
  return stats;
}

function failOpensInLog(path: string, since: string): Record<string, number> {
  const counts: Record<string, number> = {};
  if (!existsSync(path)) return counts;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let parsed: { ts?: unknown; why?: unknown };
    try {
      parsed = JSON.parse(line) as { ts?: unknown; why?: unknown };
    } catch (error) {
      if (error instanceof SyntaxError) continue; // a torn line from a crashed writer
      throw error;
    }
    if (typeof parsed.ts === 'string' && parsed.ts >= since) bump(counts, String(parsed.why));
  }
  return counts;
}
