import { existsSync, readFileSync } from 'node:fs';
import type { Ledger } from './ledger.js';

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
}

function bump(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}

/** Parses `7d`, `12h`, `30m` or an ISO date into an ISO timestamp. */
export function parseSince(value: string, now: number = Date.now()): string {
  const match = /^(\d+)([dhm])$/.exec(value.trim());
  if (match) {
    const amount = Number(match[1]);
    const unit = match[2] === 'd' ? 86_400_000 : match[2] === 'h' ? 3_600_000 : 60_000;
    return new Date(now - amount * unit).toISOString();
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new RangeError(`--since "${value}" is neither a duration (7d, 12h, 30m) nor a date (2026-11-01).`);
  }
  return date.toISOString();
}

export function computeStats(ledger: Ledger, since: string, failOpenLog?: string): LedgerStats {
  const runs = ledger.listRuns({ since });
  const runIds = new Set(runs.map((run) => run.id));
  const stats: LedgerStats = {
    since,
    runs: runs.length,
    endingReasons: {},
    statusByAgent: {},
    recovery: { nudgedRuns: 0, finishedAfterNudge: 0, rate: null },
    guardFires: {},
    gateFires: {},
    rejectionsPerDay: {},
    failOpensByWhy: {},
  };
  for (const run of runs) {
    bump(stats.endingReasons, run.endingReason ?? 'open');
    stats.statusByAgent[run.agent] ??= {
      runs: 0,
      success: 0,
      partial: 0,
      failed: 0,
      open: 0,
      successRate: null,
    };
    const agent = stats.statusByAgent[run.agent] as LedgerStats['statusByAgent'][string];
    agent.runs += 1;
    const status = (run.status ?? 'open') as 'success' | 'partial' | 'failed' | 'open';
    agent[status] += 1;
  }
  for (const agent of Object.values(stats.statusByAgent)) {
    const ended = agent.runs - agent.open;
    agent.successRate = ended > 0 ? agent.success / ended : null;
  }
  const nudged = new Set<string>();
  for (const entry of ledger.entriesSince(since, ['guard', 'gate', 'tool_call', 'fail_open'])) {
    if (entry.kind === 'guard') {
      bump(stats.guardFires, `${entry.name}:${entry.outcome}`);
      if (entry.outcome === 'nudge' && runIds.has(entry.runId)) nudged.add(entry.runId);
    } else if (entry.kind === 'gate') {
      bump(stats.gateFires, `${entry.name}:${entry.outcome}`);
    } else if (entry.kind === 'tool_call' && entry.outcome === 'rejected') {
      const day = entry.ts.slice(0, 10);
      const code = String((entry.data.error as { code?: string } | undefined)?.code ?? 'UNKNOWN');
      stats.rejectionsPerDay[day] ??= {};
      bump(stats.rejectionsPerDay[day], code);
    } else if (entry.kind === 'fail_open' && !failOpenLog) {
      bump(stats.failOpensByWhy, String(entry.outcome));
    }
  }
  stats.recovery.nudgedRuns = nudged.size;
  stats.recovery.finishedAfterNudge = runs.filter(
    (run) => nudged.has(run.id) && run.endingReason === 'finished',
  ).length;
  stats.recovery.rate = nudged.size > 0 ? stats.recovery.finishedAfterNudge / nudged.size : null;
  // The fail-open log is the complete numerator: hooks record there even when no run is active.
  if (failOpenLog && existsSync(failOpenLog)) {
    for (const line of readFileSync(failOpenLog, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let parsed: { ts?: unknown; why?: unknown };
      try {
        parsed = JSON.parse(line) as { ts?: unknown; why?: unknown };
      } catch (error) {
        if (error instanceof SyntaxError) continue; // a torn line from a crashed writer
        throw error;
      }
      if (typeof parsed.ts === 'string' && parsed.ts >= since) bump(stats.failOpensByWhy, String(parsed.why));
    }
  }
  return stats;
}
