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
  const chatRuns = runs.filter((run) => typeof run.meta.chatId === 'string');
  if (chatRuns.length > 0) stats.chatTurns = chatTurnStats(ledger, since, chatRuns);
  return stats;
}

type ListedRun = ReturnType<Ledger['listRuns']>[number];

/**
 * The chat-turn figures of issue 10, from the ledger alone: run meta (`chatId`, `orientation`),
 * guard entries, tool calls (`evidence.cached` on fs_tree), and each turn's last tool call (a
 * turn that ends in text right after a failed call is a `tool_failure` recovery).
 */
function chatTurnStats(ledger: Ledger, since: string, chatRuns: ListedRun[]): ChatTurnStats {
  const byId = new Map(chatRuns.map((run) => [run.id, run]));
  const nudged = new Set<string>();
  const conversational = new Set<string>();
  const lastCallOk = new Map<string, boolean>();
  const pathOutside: Record<string, number> = {};
  const treeByChat: Record<string, number> = {};
  let cached = 0;
  for (const run of chatRuns) {
    const orientation = run.meta.orientation as { computed?: unknown } | undefined;
    if (orientation?.computed === true) bump(treeByChat, String(run.meta.chatId));
  }
  for (const entry of ledger.entriesSince(since, ['guard', 'tool_call'])) {
    const run = byId.get(entry.runId);
    if (!run) continue;
    if (entry.kind === 'guard') {
      if (entry.name === 'silence' && entry.outcome === 'nudge') nudged.add(run.id);
      if (entry.name === 'conversational_first_turn') conversational.add(run.id);
      continue;
    }
    lastCallOk.set(run.id, entry.outcome === 'ok');
    const code = (entry.data.error as { code?: unknown } | undefined)?.code;
    if (entry.outcome === 'rejected' && code === 'PATH_OUTSIDE_PROJECT')
      bump(pathOutside, entry.ts.slice(0, 10));
    if (entry.name === 'fs_tree' || entry.data.tool === 'fs_tree') {
      bump(treeByChat, String(run.meta.chatId));
      if ((entry.data.evidence as { cached?: unknown } | undefined)?.cached === true) cached += 1;
    }
  }
  const turns = chatRuns.length;
  const recoveries: ChatTurnStats['recoveries'] = {};
  for (const run of chatRuns) {
    const reason =
      run.endingReason === 'finished'
        ? lastCallOk.get(run.id) === false
          ? 'tool_failure'
          : undefined
        : (run.endingReason ?? 'open');
    if (!reason) continue;
    recoveries[reason] ??= { turns: 0, rate: 0 };
    (recoveries[reason] as { turns: number }).turns += 1;
  }
  for (const figure of Object.values(recoveries)) figure.rate = figure.turns / turns;
  const chats = new Set(chatRuns.map((run) => String(run.meta.chatId))).size;
  const treeCounts = Object.values(treeByChat);
  const total = treeCounts.reduce((sum, count) => sum + count, 0);
  return {
    turns,
    chats,
    recoveries,
    nudgeRate: nudged.size / turns,
    conversationalRate: conversational.size / turns,
    pathOutsideProjectPerDay: pathOutside,
    treeCalls: { total, cached, perChat: total / chats, maxPerChat: Math.max(0, ...treeCounts) },
  };
}
