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
