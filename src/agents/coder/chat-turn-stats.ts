import { JOIN_END_ENTRY } from '../../core/ledger/entry.js';
import { PG_JOIN_END_ENTRY } from '../../core/ledger/postgres-queries.js';
import type { DialectSql, StatsContributor, StatsRow } from '../../core/ledger/stats-contributor.js';

/** The Coder's chat-turn counts in one ledger (or several, added up). */
export interface ChatCounts {
  turns: number;
  chatIds: string[];
  recoveries: Record<string, number>;
  nudgedTurns: number;
  conversationalTurns: number;
  pathOutsideProjectPerDay: Record<string, number>;
  treeByChat: Record<string, number>;
  cachedTrees: number;
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

// Chat turns are the runs whose meta carries a `chatId` (the Coder's), a small share of runs.
// The chat queries below go from each chat run to its own entries (CROSS JOIN keeps that order;
// a unary + keeps SQLite from the (kind, …) index, which would walk every guard or tool call of
// the ledger once per chat run: 118 s at 1M entries).
const CHAT_RUNS = `
  WITH chat AS (
    SELECT r.id, json_extract(r.meta, '$.chatId') AS chat_id, r.meta, e.outcome AS ending_reason
      FROM runs r ${JOIN_END_ENTRY}
     WHERE r.started_at >= @since AND json_type(r.meta, '$.chatId') = 'text')`;

const PG_CHAT_RUNS = `
  WITH chat AS (
    SELECT r.id, r.meta::jsonb ->> 'chatId' AS chat_id, r.meta::jsonb AS meta, e.outcome AS ending_reason
      FROM runs r ${PG_JOIN_END_ENTRY}
     WHERE r.started_at >= $1 AND jsonb_typeof(r.meta::jsonb -> 'chatId') = 'string')`;

// Where SQLite's json_extract turns JSON true into 1, PostgreSQL compares with both `true` and `1`.
const IS_TRUE = (path: string) => `(${path}) IN ('true'::jsonb, '1'::jsonb)`;

/** The Coder's stats queries; test/core/ledger/query-plans.test.ts keeps their SQLite plans. */
export const CHAT_TURN_SQL = {
  chatTurns: {
    sqlite: `${CHAT_RUNS}
     SELECT chat.id, chat.chat_id, chat.ending_reason,
            json_extract(chat.meta, '$.orientation.computed') = 1 AS oriented,
            (SELECT t.outcome FROM entries t WHERE t.run_id = chat.id AND +t.kind = 'tool_call' AND +t.ts >= @since
              ORDER BY t.seq DESC LIMIT 1) AS last_call,
            EXISTS (SELECT 1 FROM entries g WHERE g.run_id = chat.id AND +g.kind = 'guard' AND +g.ts >= @since
                       AND +g.name = 'silence' AND +g.outcome = 'nudge') AS nudged,
            EXISTS (SELECT 1 FROM entries g WHERE g.run_id = chat.id AND +g.kind = 'guard' AND +g.ts >= @since
                       AND +g.name = 'conversational_first_turn') AS conversational
       FROM chat`,
    postgres: `${PG_CHAT_RUNS}
    SELECT chat.id, chat.chat_id, chat.ending_reason,
           CASE WHEN ${IS_TRUE("chat.meta #> '{orientation,computed}'")} THEN 1 ELSE 0 END AS oriented,
           (SELECT t.outcome FROM entries t WHERE t.run_id = chat.id AND t.kind = 'tool_call' AND t.ts >= $1
             ORDER BY t.seq DESC LIMIT 1) AS last_call,
           CASE WHEN EXISTS (SELECT 1 FROM entries g WHERE g.run_id = chat.id AND g.kind = 'guard' AND g.ts >= $1
                      AND g.name = 'silence' AND g.outcome = 'nudge') THEN 1 ELSE 0 END AS nudged,
           CASE WHEN EXISTS (SELECT 1 FROM entries g WHERE g.run_id = chat.id AND g.kind = 'guard' AND g.ts >= $1
                      AND g.name = 'conversational_first_turn') THEN 1 ELSE 0 END AS conversational
      FROM chat`,
  },
  pathOutsideProject: {
    sqlite: `${CHAT_RUNS}
     SELECT substr(t.ts, 1, 10) AS day, COUNT(*) AS n FROM chat CROSS JOIN entries t ON t.run_id = chat.id
      WHERE +t.kind = 'tool_call' AND +t.ts >= @since AND +t.outcome = 'rejected'
        AND json_extract(t.data, '$.error.code') = 'PATH_OUTSIDE_PROJECT'
      GROUP BY day`,
    postgres: `${PG_CHAT_RUNS}
    SELECT substr(t.ts, 1, 10) AS day, COUNT(*)::int AS n FROM chat JOIN entries t ON t.run_id = chat.id
     WHERE t.kind = 'tool_call' AND t.ts >= $1 AND t.outcome = 'rejected'
       AND t.data::jsonb #>> '{error,code}' = 'PATH_OUTSIDE_PROJECT'
     GROUP BY 1`,
  },
  treeCalls: {
    sqlite: `${CHAT_RUNS}
     SELECT chat.chat_id, COUNT(*) AS n, SUM(json_extract(t.data, '$.evidence.cached') = 1) AS cached
       FROM chat CROSS JOIN entries t ON t.run_id = chat.id
      WHERE +t.kind = 'tool_call' AND +t.ts >= @since
        AND (t.name = 'fs_tree' OR json_extract(t.data, '$.tool') = 'fs_tree')
      GROUP BY chat.chat_id`,
    postgres: `${PG_CHAT_RUNS}
    SELECT chat.chat_id, COUNT(*)::int AS n,
           SUM(CASE WHEN ${IS_TRUE("t.data::jsonb #> '{evidence,cached}'")} THEN 1 ELSE 0 END)::int AS cached
      FROM chat JOIN entries t ON t.run_id = chat.id
     WHERE t.kind = 'tool_call' AND t.ts >= $1
       AND (t.name = 'fs_tree' OR t.data::jsonb ->> 'tool' = 'fs_tree')
     GROUP BY chat.chat_id`,
  },
} as const satisfies Record<string, DialectSql>;

function bump(map: Record<string, number>, key: string, by: number): void {
  map[key] = (map[key] ?? 0) + by;
}

function addAll(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, n] of Object.entries(from)) bump(into, key, n);
}

/** Chat counts before any turn is counted. */
function emptyChatCounts(): ChatCounts {
  return {
    turns: 0,
    chatIds: [],
    recoveries: {},
    nudgedTurns: 0,
    conversationalTurns: 0,
    pathOutsideProjectPerDay: {},
    treeByChat: {},
    cachedTrees: 0,
  };
}

/**
 * The chat-turn figures of issue 10, from the ledger alone: run meta (`chatId`, `orientation`),
 * guard entries, tool calls (`evidence.cached` on fs_tree), and each turn's last tool call (a
 * turn that ends in text right after a failed call is a `tool_failure` recovery).
 */
export function foldChatTurns(rows: {
  chatTurns: StatsRow[];
  pathOutsideProject: StatsRow[];
  treeCalls: StatsRow[];
}): ChatCounts | undefined {
  const turns = rows.chatTurns;
  if (turns.length === 0) return undefined;
  const counts: ChatCounts = {
    ...emptyChatCounts(),
    turns: turns.length,
    chatIds: [...new Set(turns.map((row) => String(row.chat_id)))],
  };
  for (const turn of turns) {
    if (Number(turn.oriented) === 1) bump(counts.treeByChat, String(turn.chat_id), 1);
    if (Number(turn.nudged) === 1) counts.nudgedTurns += 1;
    if (Number(turn.conversational) === 1) counts.conversationalTurns += 1;
    const reason =
      turn.ending_reason === 'finished'
        ? turn.last_call !== null && turn.last_call !== 'ok'
          ? 'tool_failure'
          : undefined
        : String(turn.ending_reason ?? 'open');
    if (reason) bump(counts.recoveries, reason, 1);
  }
  for (const row of rows.pathOutsideProject)
    bump(counts.pathOutsideProjectPerDay, String(row.day), Number(row.n));
  for (const row of rows.treeCalls) {
    bump(counts.treeByChat, String(row.chat_id), Number(row.n));
    counts.cachedTrees += Number(row.cached ?? 0);
  }
  return counts;
}

function percent(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

/** The Coder's share of `tally stats`: how its chat turns went (`chatTurns` in --json). */
export const chatTurnStats: StatsContributor<ChatCounts, ChatTurnStats> = {
  name: 'chatTurns',
  async count(source) {
    const turns = await source.rows(CHAT_TURN_SQL.chatTurns);
    // The two other chat queries only when there are chat turns at all (most ledgers have none).
    if (turns.length === 0) return undefined;
    return foldChatTurns({
      chatTurns: turns,
      pathOutsideProject: await source.rows(CHAT_TURN_SQL.pathOutsideProject),
      treeCalls: await source.rows(CHAT_TURN_SQL.treeCalls),
    });
  },
  merge(into, from) {
    const merged = emptyChatCounts();
    for (const chat of [into, from]) {
      merged.turns += chat.turns;
      merged.chatIds = [...new Set([...merged.chatIds, ...chat.chatIds])];
      merged.nudgedTurns += chat.nudgedTurns;
      merged.conversationalTurns += chat.conversationalTurns;
      merged.cachedTrees += chat.cachedTrees;
      addAll(merged.recoveries, chat.recoveries);
      addAll(merged.pathOutsideProjectPerDay, chat.pathOutsideProjectPerDay);
      addAll(merged.treeByChat, chat.treeByChat);
    }
    return merged;
  },
  figures(chat) {
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
  },
  lines(chat) {
    const recoveries = Object.entries(chat.recoveries).sort((a, b) => b[1].turns - a[1].turns);
    const days = Object.entries(chat.pathOutsideProjectPerDay).sort();
    return [
      `Coder chat turns: ${chat.turns} in ${chat.chats} chat(s)`,
      recoveries.length === 0
        ? '  Recoveries (turns that ended badly): none'
        : '  Recoveries (turns that ended badly), by reason:',
      ...recoveries.map(
        ([reason, figure]) => `    ${reason.padEnd(20)} ${figure.turns} (${percent(figure.rate)} of turns)`,
      ),
      `  Silence nudge fired in:           ${percent(chat.nudgeRate)} of turns`,
      `  Conversational guard fired in:    ${percent(chat.conversationalRate)} of turns`,
      days.length === 0
        ? '  PATH_OUTSIDE_PROJECT per day: none'
        : `  PATH_OUTSIDE_PROJECT per day: ${days.map(([day, count]) => `${day} ${count}`).join(', ')}`,
      `  fs_tree calls per chat: ${chat.treeCalls.perChat.toFixed(2)} (max ${chat.treeCalls.maxPerChat}; ${chat.treeCalls.total} in all, ${chat.treeCalls.cached} from the cache)`,
    ];
  },
};
