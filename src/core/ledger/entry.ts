import {
  type EntryData,
  type EntryDataInput,
  type EntryDataSchemas,
  ENTRY_KINDS as KINDS,
} from './entry-schemas.js';

/** The closed set of ledger entry kinds: one per data schema (see entry-schemas.ts). */
export const ENTRY_KINDS: readonly EntryKind[] = KINDS;

export type EntryKind = keyof EntryDataSchemas;

interface EntryHead<K> {
  kind: K;
  /** Tool, guard or gate name, model id… whatever the kind is about. */
  name?: string;
  /** ok / error / rejected for tool calls; verified / dropped for claims; the reason for an end. */
  outcome?: string;
}

/** An entry as a writer appends it: `data` typed by its kind. */
export type NewEntry = { [K in EntryKind]: EntryHead<K> & { data: EntryDataInput<K> } }[EntryKind];

interface Stored {
  runId: string;
  seq: number;
  ts: string;
}

/** A stored entry whose data fits its kind's schema. */
export type TypedEntry<K extends EntryKind = EntryKind> = {
  [T in K]: EntryHead<T> & Stored & { data: EntryData<T> };
}[K];

/**
 * A stored entry that does not fit its kind's schema (a hand-edited or damaged ledger, or a
 * kind this Tally does not know): kept, never coerced, so no reader trips on it. `runs show`
 * prints it as malformed and `tally ledger check` reports it.
 */
export interface MalformedEntry extends Stored {
  kind: 'malformed';
  /** The kind the row was stored with. */
  storedKind: string;
  name?: string;
  outcome?: string;
  /** The stored data as parsed (empty when it is not a JSON object). */
  data: Record<string, unknown>;
  /** What does not fit, one line each. */
  problems: string[];
}

export type LedgerEntry = TypedEntry | MalformedEntry;

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
