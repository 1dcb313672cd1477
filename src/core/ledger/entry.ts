/** The closed set of ledger entry kinds. */
export const ENTRY_KINDS = [
  'tool_call',
  // Written and committed before a tool changes something; its tool_call entry is the outcome.
  'intent',
  'model_call',
  'guard',
  'nudge',
  'gate',
  'fail_open',
  'claim',
  'contract',
  'end',
] as const;

export type EntryKind = (typeof ENTRY_KINDS)[number];

export interface NewEntry {
  kind: EntryKind;
  /** Tool, guard or gate name, model id… whatever the kind is about. */
  name?: string;
  /** ok / error / rejected for tool calls; verified / dropped for claims; the reason for an end. */
  outcome?: string;
  data: Record<string, unknown>;
}

export interface LedgerEntry extends NewEntry {
  runId: string;
  seq: number;
  ts: string;
}

export interface RunInfo {
  id: string;
  agent: string;
  task: string;
  startedAt: string;
  meta: Record<string, unknown>;
}

export interface RunListing extends RunInfo {
  endingReason: string | null;
  status: string | null;
  endedAt: string | null;
  toolCalls: number;
}

export interface RunRecord {
  run: RunInfo;
  entries: LedgerEntry[];
}

/**
 * SQL: joins a run `r` with its end entry `e` (when it has one) through entries_run_kind, which
 * holds each entry's (run_id, kind, seq): a lookup, not a walk through the run's entries.
 */
export const JOIN_END_ENTRY = `LEFT JOIN entries e ON e.run_id = r.id AND e.seq =
  (SELECT x.seq FROM entries x WHERE x.run_id = r.id AND x.kind = 'end' ORDER BY x.seq LIMIT 1)`;
