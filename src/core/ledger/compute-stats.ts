import { existsSync, readFileSync } from 'node:fs';
import type { Ledger } from './ledger.js';
import { type ChatCounts, type LedgerCounts, mergeCounts } from './ledger-counts.js';

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
  /** Chat turns (runs whose meta carries a `chatId`, as the Coder's do); absent when there were none. */
  chatTurns?: ChatTurnStats;
}

export interface ChatTurnStats {
  turns: number;
  chats: number;
  /** Turns that ended badly (and so got a recovery summary), by reason, with their share of turns. */
  recoveries: Record<string, { turns: number; rate: number }>;
  /** Share of turns in which the silence nudge fired. */
  nudgeRate: number;
  /** Share of turns whose opening was classified conversational (no tools on round 1). */
  conversationalRate: number;
  /** PATH_OUTSIDE_PROJECT refusals in chat turns, by day. */
  pathOutsideProjectPerDay: Record<string, number>;
  /** fs_tree calls per chat (orientation included): how often a chat re-asked for the layout. */
  treeCalls: { total: number; cached: number; perChat: number; maxPerChat: number };
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

/** Stats of one ledger since `since` (an ISO time); see `statsFromCounts`. */
export async function computeStats(
  ledger: Ledger,
  since: string,
  failOpenLog?: string,
): Promise<LedgerStats> {
  return statsFromCounts([await countForStats(ledger, since, failOpenLog)], since);
}

/**
 * One ledger's counts since `since`. With a fail-open log, fail-opens come from it: it is the
 * complete numerator (hooks record there even when no run is active) — and count nothing when
 * `logCounted` says a log shared by several ledgers was counted with another one already.
 */
export async function countForStats(
  ledger: Ledger,
  since: string,
  failOpenLog?: string,
  logCounted = false,
): Promise<LedgerCounts> {
  const counts = await ledger.counts(since);
  if (!failOpenLog) return counts;
  return { ...counts, failOpensByWhy: logCounted ? {} : failOpensInLog(failOpenLog, since) };
}

/**
 * Stats from the counts of one or more ledgers (`tally stats` counts every ledger `tally runs`
 * lists): the counts add up, and the rates come from the sums.
 */
export function statsFromCounts(all: LedgerCounts[], since: string): LedgerStats {
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
  if (counts.chat) stats.chatTurns = chatTurnStats(counts.chat);
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

/** The chat-turn figures of issue 10 (see `countChatTurns`), as shares of turns and per chat. */
function chatTurnStats(chat: ChatCounts): ChatTurnStats {
  const turns = chat.turns;
  const recoveries: ChatTurnStats['recoveries'] = {};
  for (const [reason, count] of Object.entries(chat.recoveries))
    recoveries[reason] = { turns: count, rate: count / turns };
  const chats = chat.chatIds.length;
  const treeCounts = Object.values(chat.treeByChat);
  const total = treeCounts.reduce((sum, count) => sum + count, 0);
  return {
    turns,
    chats,
    recoveries,
    nudgeRate: chat.nudgedTurns / turns,
    conversationalRate: chat.conversationalTurns / turns,
    pathOutsideProjectPerDay: chat.pathOutsideProjectPerDay,
    treeCalls: {
      total,
      cached: chat.cachedTrees,
      perChat: total / chats,
      maxPerChat: Math.max(0, ...treeCounts),
    },
  };
}
