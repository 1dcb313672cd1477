import { TallyError } from '../errors.js';
import type { Redactor } from '../redact.js';
import { checkLedgerPath } from './check-ledger-path.js';
import type { EntryKind, LedgerEntry, RunInfo, RunListing, RunRecord } from './entry.js';
import type { LedgerCounts } from './ledger-counts.js';
import type { LedgerProblem, PurgeResult } from './ledger-maintenance.js';
import { isPostgresUrl, notALedgerPath } from './postgres-url.js';
import type { ImportResult, RunRecorder, StartRunOptions, StoredRun } from './recording-ledger.js';
import { type LedgerOpenOptions, SqliteLedger } from './sqlite-ledger.js';
import type { DialectSql, StatsRow } from './stats-contributor.js';

export type { RunRecorder, StartRunOptions } from './recording-ledger.js';
export { type LedgerOpenOptions, LIST_RUNS_SQL, SqliteLedger } from './sqlite-ledger.js';

/** A value, or a promise of one: SQLite answers at once, PostgreSQL over the network. Always `await` it. */
export type Awaitable<T> = T | Promise<T>;

/**
 * The ledger as the rest of Tally sees it, whichever store is behind it (a SQLite file, a
 * PostgreSQL database). Recording is synchronous and group-committed on both; a run's own
 * `entries` are in-process bookkeeping (no round trip per tool call); every read across runs
 * is awaited.
 */
export interface Ledger {
  readonly backend: 'sqlite' | 'postgres';
  /** The file, or the URL with its password removed: safe to print. */
  readonly path: string;
  withKnownSecrets<T>(secrets: Iterable<string>, work: () => T): T;
  /**
   * Values secret for every run recorded from now on, runs under way included (the process's
   * own credentials; a session cookie rotated mid-run).
   */
  knowSecrets(secrets: Iterable<string>): void;
  startRun(options: StartRunOptions): RunRecorder;
  recorderFor(runId: string, redactor?: Redactor): RunRecorder;
  /** A run this process records (or, on SQLite, any run), in order; PostgreSQL: see `getRun` for others. */
  entries(runId: string): LedgerEntry[];
  /** Everything queued, committed: false if the store stayed unavailable past `limitMs`. */
  commit(limitMs?: number): Promise<boolean>;
  hasRun(runId: string): Awaitable<boolean>;
  /** One run and all its entries in order, from the store (what `runs show`, `report` and `verify` read). */
  getRun(runId: string): Awaitable<RunRecord>;
  /** The run without its entries; with `runEntriesAfter`, a big run read a page at a time (see run-pages.ts). */
  getRunInfo(runId: string): Awaitable<RunInfo>;
  /** Up to `limit` committed entries of the run with seq > `afterSeq`, in order. */
  runEntriesAfter(runId: string, afterSeq: number, limit: number): Awaitable<LedgerEntry[]>;
  listRuns(options?: { limit?: number; since?: string; agent?: string }): Awaitable<RunListing[]>;
  counts(since: string): Awaitable<LedgerCounts>;
  /** The rows of a stats contributor's own read-only query over the period since `since`. */
  statsRows(sql: DialectSql, since: string): Awaitable<StatsRow[]>;
  purge(before: string, options?: { dryRun?: boolean }): Awaitable<PurgeResult>;
  vacuum(): Awaitable<void>;
  check(): Awaitable<LedgerProblem[]>;
  entriesSince(since: string, kinds: EntryKind[]): Awaitable<LedgerEntry[]>;
  exportRuns(batch?: number): AsyncGenerator<StoredRun[]>;
  importRuns(runs: StoredRun[]): Awaitable<ImportResult>;
  /** Writes what is queued, then lets the store go. */
  close(): Awaitable<void>;
}

/** Opens a ledger file (SQLite); `openLedger` takes a postgres:// URL too. */
export const Ledger = {
  open(path: string, options: LedgerOpenOptions = {}): SqliteLedger {
    return SqliteLedger.open(path, options);
  },
};

/**
 * Opens the ledger `target` names: a postgres:// (or postgresql://) URL selects PostgreSQL —
 * its driver is loaded only then — anything else is a SQLite file.
 */
export async function openLedger(target: string, options: LedgerOpenOptions = {}): Promise<Ledger> {
  const problem = notALedgerPath(target);
  if (problem) throw new TallyError('LEDGER_PATH_INVALID', problem);
  if (!isPostgresUrl(target)) {
    checkLedgerPath(target);
    return SqliteLedger.open(target, options);
  }
  const { PostgresLedger } = await import('./postgres-ledger.js');
  return PostgresLedger.open(target, options);
}
