import { dirname, join } from 'node:path';
import { LedgerError, RunNotFoundError } from '../errors.js';
import { createFailOpen, type FailOpen } from '../fail-open.js';
import { makeDirs } from '../make-dirs.js';
import { monotonicMs } from '../monotonic-clock.js';
import { openSqlite } from '../sqlite/open-sqlite.js';
import type { SqliteDatabase, SqliteStatement, SqliteTransaction } from '../sqlite/sqlite-database.js';
import {
  DEFAULT_BUSY_LIMIT_MS,
  DEFAULT_BUSY_TIMEOUT_MS,
  isBusyError,
  isNotADatabase,
  retryDelay,
  sleepSync,
} from './busy-retry.js';
import {
  type EntryKind,
  JOIN_END_ENTRY,
  type LedgerEntry,
  type RunInfo,
  type RunListing,
  type RunRecord,
} from './entry.js';
import { countLedger, type LedgerCounts } from './ledger-counts.js';
import {
  checkLedger,
  type LedgerProblem,
  type PurgeResult,
  purgeRuns,
  vacuumLedger,
} from './ledger-maintenance.js';
import { openReadOnlyDatabase } from './open-read-only.js';
import { OwnEntries } from './own-entries.js';
import {
  type EntryRow,
  type ImportResult,
  type QueuedEntry,
  type QueuedRun,
  RecordingLedger,
  type RunRow,
  type StoredRun,
  toEntry,
  toRun,
} from './recording-ledger.js';
import { applySchema } from './schema.js';
import type { DialectSql, StatsRow } from './stats-contributor.js';

export interface LedgerOpenOptions {
  readonly?: boolean;
  /** How long one write attempt waits for another process's lock (it blocks the event loop). */
  busyTimeoutMs?: number;
  /** Total wait after which LEDGER_BUSY is reported; queued entries are kept and still written. */
  busyLimitMs?: number;
  /** Where a ledger that stays locked is reported; defaults to `fail-open.jsonl` beside it. */
  failOpenLog?: string;
  /** Told once per outage when the lock is held past `busyLimitMs`. */
  onBusy?: (error: LedgerError) => void;
}

/**
 * The longest an appended entry waits for its commit while appends keep coming. Reads through
 * the ledger, `flush()`, close and process exit write the queue at once.
 */
const GROUP_COMMIT_MS = 5;

/** How much of a ledger a read-only connection maps into memory (pages are mapped as touched). */
const READ_MMAP_BYTES = 256 * 1024 * 1024;

/**
 * The run list reads what it shows: the newest `limit` runs by id (the runs table's own order),
 * each one's end entry and tool-call count through entries_run_kind — never a scan of entries
 * (test/core/ledger/query-plans.test.ts keeps the plan).
 */
export const LIST_RUNS_SQL = `SELECT r.*, e.outcome AS ending_reason, json_extract(e.data, '$.status') AS status, e.ts AS ended_at,
                (SELECT COUNT(*) FROM entries t WHERE t.run_id = r.id AND t.kind = 'tool_call') AS tool_calls
           FROM (SELECT * FROM runs WHERE started_at >= @since AND (@agent IS NULL OR agent = @agent)
                  ORDER BY id DESC LIMIT @limit) r
           ${JOIN_END_ENTRY}
          ORDER BY r.id DESC`;

/**
 * The persistent, append-only ledger: one SQLite database (WAL) per project state folder.
 * Safe for parallel appends within a process and for several processes on one file: each
 * insert assigns its own sequence number under SQLite's write lock.
 *
 * Appends are group-committed: queued in memory and written in one transaction at the end
 * of the current event-loop turn — or, while appends keep coming, at most GROUP_COMMIT_MS
 * after the previous commit — and always before any read through this ledger, on `flush()`,
 * on close, and on process exit. A hard kill can lose at most the last few milliseconds.
 */
export class SqliteLedger extends RecordingLedger {
  readonly backend = 'sqlite' as const;
  readonly path: string;
  private readonly database: SqliteDatabase;
  private readonly insertEntry: SqliteStatement;
  private readonly insertRun: SqliteStatement;
  private readonly selectEntries: SqliteStatement;
  private readonly selectEntryPage: SqliteStatement;
  private queue: QueuedEntry[] = [];
  /**
   * The pending group-commit flush, if any. A flush made meanwhile (an MCP call's commit before
   * its answer) cancels it: left pending, it would wake the idle process between calls for
   * nothing (an extra event-loop turn per call, issue 22).
   */
  private scheduledFlush: { timer: NodeJS.Timeout } | { immediate: NodeJS.Immediate } | undefined;
  /** When the last batch was written (monotonicMs()): appends faster than the window share a commit. */
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private readonly writeQueue: SqliteTransaction<(runs: QueuedRun[], rows: QueuedEntry[]) => EntryRow[]>;
  private readonly lastSeq: SqliteStatement;
  /** Rows of the runs this process started, as committed: their read-back needs no SELECT. */
  private readonly own = new OwnEntries();
  private runQueue: QueuedRun[] = [];
  private readonly flushOnExit = () => {
    this.finalFlush(false);
    if (this.database.open && !this.readonly) this.leaveRollbackJournal();
  };
  private readonly settings: Required<Pick<LedgerOpenOptions, 'busyTimeoutMs' | 'busyLimitMs'>> &
    Pick<LedgerOpenOptions, 'onBusy'>;
  private readonly failOpen: FailOpen;
  /** Opened read-only: never writes, not even the journal switch on close. */
  private readonly readonly: boolean;
  /** While another process holds the write lock: when it started, retries so far, the pending timer. */
  private busy: { since: number; attempts: number; reported?: LedgerError; runs: Set<string> } | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  private constructor(path: string, database: SqliteDatabase, options: LedgerOpenOptions) {
    super();
    this.path = path;
    this.readonly = Boolean(options.readonly);
    this.database = database;
    this.settings = {
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      busyLimitMs: options.busyLimitMs ?? DEFAULT_BUSY_LIMIT_MS,
      ...(options.onBusy ? { onBusy: options.onBusy } : {}),
    };
    this.failOpen = createFailOpen({
      logPath: options.failOpenLog ?? join(dirname(path), 'fail-open.jsonl'),
    });
    // Sequence numbers are assigned inside the write transaction, so several processes
    // appending to one run never collide: the write lock serializes whole batches.
    this.insertEntry = database.prepare(
      'INSERT INTO entries (run_id, seq, ts, kind, name, outcome, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertRun = database.prepare(
      'INSERT INTO runs (id, agent, task, started_at, meta) VALUES (?, ?, ?, ?, ?)',
    );
    const lastSeq = database
      .prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM entries WHERE run_id = ?')
      .pluck();
    this.lastSeq = lastSeq;
    this.writeQueue = database.transaction((runs: QueuedRun[], rows: QueuedEntry[]) => {
      // Runs first: a run's row is in the same commit as its first entries.
      for (const run of runs) this.insertRun.run(run.id, run.agent, run.task, run.startedAt, run.meta);
      const next = new Map<string, number>();
      const written: EntryRow[] = [];
      for (const row of rows) {
        const seq = (next.get(row.runId) ?? (lastSeq.get(row.runId) as number)) + 1;
        next.set(row.runId, seq);
        this.insertEntry.run(row.runId, seq, row.ts, row.kind, row.name, row.outcome, row.data);
        written.push({
          run_id: row.runId,
          seq,
          ts: row.ts,
          kind: row.kind,
          name: row.name,
          outcome: row.outcome,
          data: row.data,
        });
      }
      return written;
    });
    process.once('exit', this.flushOnExit);
    this.selectEntries = database.prepare('SELECT * FROM entries WHERE run_id = ? ORDER BY seq');
    this.selectEntryPage = database.prepare(
      'SELECT * FROM entries WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
  }

  static open(path: string, options: LedgerOpenOptions = {}): SqliteLedger {
    const limitMs = options.busyLimitMs ?? DEFAULT_BUSY_LIMIT_MS;
    const deadline = Date.now() + limitMs;
    let database: SqliteDatabase | undefined;
    for (let attempt = 0; !database; attempt++) {
      try {
        database = SqliteLedger.openDatabase(path, options, limitMs);
      } catch (error) {
        // SQLite answers SQLITE_BUSY at once, without its busy handler, where waiting could
        // deadlock: two processes opening one file together (a read lock each, both asking
        // for the write lock to switch the journal or apply the schema). Opening again after
        // a pause is then right; nothing is being served yet, so the pause may block.
        const left = deadline - Date.now();
        if (!isBusyError(error) || left <= 0) throw SqliteLedger.openFailed(path, error);
        sleepSync(Math.min(retryDelay(attempt), left));
      }
    }
    return new SqliteLedger(path, database, options);
  }

  private static openDatabase(path: string, options: LedgerOpenOptions, limitMs: number): SqliteDatabase {
    let database: SqliteDatabase | undefined;
    try {
      if (!options.readonly) makeDirs(dirname(path));
      // Opening may wait the whole limit for a lock: nothing is being served yet.
      database = options.readonly
        ? openReadOnlyDatabase(path, limitMs)
        : openSqlite(path, { timeout: limitMs });
      // Reads map the file rather than copying each page through a read() call: `stats` on a
      // million entries reads tens of thousands of scattered rows (about a quarter faster).
      if (options.readonly) database.pragma(`mmap_size = ${READ_MMAP_BYTES}`);
      // Before anything is written (the journal switch writes the header): another program's
      // database is refused whole, never given Tally's tables beside its own.
      refuseForeignDatabase(database, path, Boolean(options.readonly));
      if (!options.readonly) {
        database.pragma('journal_mode = WAL');
        database.pragma('synchronous = NORMAL');
        applySchema(database);
      } else {
        // A read-only open reads nothing yet: probe now, so a file that is not a database is
        // reported as such here rather than as an unexpected error at the first query.
        database.prepare('SELECT count(*) FROM sqlite_master').get();
      }
      // A reader waits as long as opening may: a writer holds the file's lock briefly while it
      // switches the journal (see leaveRollbackJournal), and a read blocks no append of its own.
      const busyTimeout = options.busyTimeoutMs ?? (options.readonly ? limitMs : DEFAULT_BUSY_TIMEOUT_MS);
      database.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeout))}`);
      return database;
    } catch (error) {
      database?.close();
      throw error;
    }
  }

  private static openFailed(path: string, error: unknown): LedgerError {
    if (error instanceof LedgerError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return isBusyError(error)
      ? new LedgerError(
          'LEDGER_BUSY',
          `The ledger at ${path} stayed locked by another process while it was opened (${reason}). Wait for that process to finish, or pass --ledger PATH to use another file.`,
          { path },
          { cause: error },
        )
      : new LedgerError(
          'LEDGER_UNAVAILABLE',
          isNotADatabase(error)
            ? `${path} is not a Tally ledger (${reason}). Pass --ledger with a ledger file, such as .tally/ledger.db, or remove that file.`
            : `Cannot open the ledger at ${path}: ${reason}. Pass --ledger PATH or set TALLY_LEDGER to a writable file.`,
          { path },
          // The driver's error underneath (its code, errno): the message keeps only its words.
          { cause: error },
        );
  }

  protected queueRun(run: QueuedRun): void {
    this.own.started(run.id);
    this.runQueue.push(run);
    this.scheduleFlush();
  }

  protected queueEntry(entry: QueuedEntry): void {
    this.queue.push(entry);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    // While the lock is held elsewhere the pending retry writes everything; an attempt per
    // turn would block the event loop for the busy timeout on every append.
    if (this.retryTimer) return;
    if (!this.scheduledFlush) {
      // Group commit: an append after a quiet spell is written at the end of this turn; while
      // appends keep coming (a plan's creates), one commit per GROUP_COMMIT_MS takes them all.
      const wait = this.lastFlushAt + GROUP_COMMIT_MS - monotonicMs();
      const run = () => {
        this.scheduledFlush = undefined;
        this.flushInBackground();
      };
      this.scheduledFlush =
        wait <= 0 ? { immediate: setImmediate(run) } : { timer: setTimeout(run, wait).unref() };
    }
  }

  private cancelScheduledFlush(): void {
    const scheduled = this.scheduledFlush;
    if (!scheduled) return;
    this.scheduledFlush = undefined;
    if ('timer' in scheduled) clearTimeout(scheduled.timer);
    else clearImmediate(scheduled.immediate);
  }

  /**
   * Writes every queued entry in one transaction; reads call it first. Returns false when
   * another process holds the write lock: the entries stay queued (reads of a run still see
   * them) and are retried asynchronously with backoff, so the event loop never waits long.
   */
  flush(): boolean {
    this.cancelScheduledFlush();
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    if ((this.queue.length === 0 && this.runQueue.length === 0) || !this.database.open) return true;
    this.lastFlushAt = monotonicMs();
    const runs = this.runQueue;
    const rows = this.queue;
    this.runQueue = [];
    this.queue = [];
    let written: EntryRow[];
    try {
      written = this.writeQueue.immediate(runs, rows);
    } catch (error) {
      // Nothing of the batch was committed (one transaction): put it back in front, in order.
      this.runQueue = runs.concat(this.runQueue);
      this.queue = rows.concat(this.queue);
      if (!isBusyError(error)) throw this.writeFailed(error);
      this.waitForLock(rows);
      return false;
    }
    // Only now, committed: a batch rolled back above is kept nowhere but the queue.
    this.own.committed(written);
    this.lockFreed(rows);
    return true;
  }

  /**
   * Commits the queue, waiting for another process's write lock at most `limitMs` (default:
   * the busy limit), without blocking the event loop. True once everything queued is on disk;
   * false when the lock was still held at the deadline (the entries stay queued and retried).
   * For callers that must not acknowledge anything before its entry is committed (MCP).
   */
  async commit(limitMs = this.settings.busyLimitMs): Promise<boolean> {
    const deadline = Date.now() + limitMs;
    for (let attempt = 0; ; attempt++) {
      if (this.flush()) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryDelay(attempt), left)));
    }
  }

  /** The flush of an event-loop turn or a retry: nothing thrown here could be caught by anyone. */
  private flushInBackground(): void {
    try {
      this.flush();
    } catch (error) {
      // Security/robustness: an exception in a timer callback would crash the process and
      // lose every queued entry; keep them queued, report, and retry later instead.
      process.stderr.write(`tally: ${error instanceof Error ? error.message : String(error)}\n`);
      this.failOpen('ledger', 'ledger-unavailable');
      this.waitForLock([]);
    }
  }

  private writeFailed(error: unknown): LedgerError {
    const reason = error instanceof Error ? error.message : String(error);
    return new LedgerError(
      'LEDGER_WRITE_FAILED',
      `Cannot write to the ledger at ${this.path}: ${reason}. ${this.queue.length} entries are kept in memory; free disk space or fix the file's permissions, or pass --ledger PATH.`,
      { path: this.path },
      { cause: error },
    );
  }

  private waitForLock(rows: QueuedEntry[]): void {
    const now = Date.now();
    this.busy ??= { since: now, attempts: 0, runs: new Set() };
    for (const row of rows) this.busy.runs.add(row.runId);
    const busy = this.busy;
    if (!busy.reported && now - busy.since >= this.settings.busyLimitMs) {
      busy.reported = this.busyError(now - busy.since);
      this.failOpen('ledger', 'ledger-unavailable');
      this.settings.onBusy?.(busy.reported);
    }
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = undefined;
        this.flushInBackground();
      },
      retryDelay(busy.attempts++),
    );
    // The exit handler makes a last, blocking attempt; a pending retry must not keep a
    // finished process alive by itself.
    this.retryTimer.unref();
  }

  private busyError(waitedMs: number): LedgerError {
    return new LedgerError(
      'LEDGER_BUSY',
      `The ledger at ${this.path} has been locked by another process for ${Math.round(waitedMs / 1000)} s; ${this.queue.length} entries are held in memory and will be written when it frees. Find the process holding it (for example \`fuser ${this.path}\`) or pass --ledger PATH to use another file.`,
      { path: this.path, waitedMs, queued: this.queue.length },
    );
  }

  protected outageReported(): LedgerError | undefined {
    return this.busy?.reported;
  }

  /** After an outage reported as LEDGER_BUSY, each run it held up gets a fail_open entry saying so. */
  private lockFreed(rows: QueuedEntry[]): void {
    const busy = this.busy;
    if (!busy) return;
    this.busy = undefined;
    if (!busy.reported) return;
    for (const row of rows) busy.runs.add(row.runId);
    const waitedMs = Date.now() - busy.since;
    for (const runId of busy.runs) {
      this.queue.push({
        runId,
        ts: new Date().toISOString(),
        kind: 'fail_open',
        name: 'ledger',
        outcome: 'ledger-unavailable',
        data: JSON.stringify({ component: 'ledger', why: 'ledger-unavailable', waitedMs }),
      });
    }
    this.scheduleFlush();
  }

  /** A last, blocking attempt (process exit, close) that waits up to the busy limit. */
  private finalFlush(throwOnFailure: boolean): void {
    if (!this.database.open || (this.queue.length === 0 && this.runQueue.length === 0)) return;
    let failure: unknown;
    try {
      this.database.pragma(`busy_timeout = ${Math.floor(this.settings.busyLimitMs)}`);
      if (!this.flush())
        failure = this.busy?.reported ?? this.busyError(Date.now() - (this.busy?.since ?? Date.now()));
    } catch (error) {
      failure = error;
    }
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (failure === undefined) return;
    this.failOpen('ledger', 'ledger-unavailable');
    const lost = this.queue.length + this.runQueue.length;
    const error = failure instanceof LedgerError ? failure : this.writeFailed(failure);
    if (throwOnFailure) throw error;
    process.stderr.write(
      `tally: ${error.message} (${lost} ledger entries could not be written before exit)\n`,
    );
  }

  entries(runId: string): LedgerEntry[] {
    this.flush();
    const stored =
      this.own.entries(runId, () => this.lastSeq.get(runId) as number) ??
      (this.selectEntries.all(runId) as EntryRow[]).map(toEntry);
    const pending = this.queue.filter((row) => row.runId === runId);
    if (pending.length === 0) return stored;
    // The lock is held elsewhere: this run's queued entries are still facts of the run.
    let seq = stored.at(-1)?.seq ?? 0;
    return [
      ...stored,
      ...pending.map((row) =>
        toEntry({
          run_id: row.runId,
          seq: ++seq,
          ts: row.ts,
          kind: row.kind,
          name: row.name,
          outcome: row.outcome,
          data: row.data,
        }),
      ),
    ];
  }

  /** Whether this ledger has the run (written or still queued), without reading its entries. */
  hasRun(runId: string): boolean {
    if (this.runQueue.some((run) => run.id === runId)) return true;
    return this.database.prepare('SELECT 1 FROM runs WHERE id = ?').get(runId) !== undefined;
  }

  getRun(runId: string): RunRecord {
    return { run: this.getRunHead(runId), entries: this.entries(runId) };
  }

  /** The run's own row, or the queued run while the lock is held elsewhere. */
  private getRunHead(runId: string): RunInfo {
    this.flush();
    const row = this.database.prepare('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined;
    if (row) return toRun(row);
    const queued = this.runQueue.find((run) => run.id === runId);
    if (!queued) throw new RunNotFoundError(runId, this.path);
    return toRun({
      id: queued.id,
      agent: queued.agent,
      task: queued.task,
      started_at: queued.startedAt,
      meta: queued.meta,
    });
  }

  /** The run alone, without its entries: the head of a streamed `runs show` or report. */
  getRunInfo(runId: string): RunInfo {
    return this.getRunHead(runId);
  }

  /** Up to `limit` committed entries of the run after `afterSeq`, in order: one page of a streamed read. */
  runEntriesAfter(runId: string, afterSeq: number, limit: number): LedgerEntry[] {
    this.flush();
    return (this.selectEntryPage.all(runId, afterSeq, limit) as EntryRow[]).map(toEntry);
  }

  /** Runs newest first, with their ending when they have one (see LIST_RUNS_SQL). */
  listRuns(options: { limit?: number; since?: string; agent?: string } = {}): RunListing[] {
    this.flush();
    const rows = this.database.prepare(LIST_RUNS_SQL).all({
      since: options.since ?? '',
      agent: options.agent ?? null,
      limit: options.limit ?? -1,
    }) as (RunRow & {
      ending_reason: string | null;
      status: string | null;
      ended_at: string | null;
      tool_calls: number;
    })[];
    return rows.map((row) => ({
      ...toRun(row),
      endingReason: row.ending_reason,
      status: row.status,
      endedAt: row.ended_at,
      toolCalls: row.tool_calls,
    }));
  }

  /** What `tally stats` counts since a time, as SQL aggregates (see `countLedger`). */
  counts(since: string): LedgerCounts {
    this.flush();
    return countLedger(this.database, since);
  }

  /** A stats contributor's query, `@since` bound (see `StatsContributor`). */
  statsRows(sql: DialectSql, since: string): StatsRow[] {
    this.flush();
    return this.database.prepare(sql.sqlite).all({ since }) as StatsRow[];
  }

  /** Retention: removes the runs wholly before `before` (an ISO time), never part of one. */
  purge(before: string, options: { dryRun?: boolean } = {}): PurgeResult {
    this.flush();
    return purgeRuns(this.database, before, options.dryRun);
  }

  /** Gives the space of purged runs back to the file system. */
  vacuum(): void {
    this.flush();
    vacuumLedger(this.database);
  }

  /** SQLite's integrity check and the ledger's own invariants; empty when all hold. */
  check(): LedgerProblem[] {
    this.flush();
    return checkLedger(this.database);
  }

  /** Entries of some kinds across runs started since a time; backs `tally stats`. */
  entriesSince(since: string, kinds: EntryKind[]): LedgerEntry[] {
    this.flush();
    const placeholders = kinds.map(() => '?').join(', ');
    const rows = this.database
      .prepare(`SELECT * FROM entries WHERE ts >= ? AND kind IN (${placeholders}) ORDER BY ts, run_id, seq`)
      .all(since, ...kinds) as EntryRow[];
    return rows.map(toEntry);
  }

  /** Every run with its entries, in run-id order, `batch` runs at a time: the source side of `tally ledger copy`. */
  async *exportRuns(batch = 200): AsyncGenerator<StoredRun[]> {
    this.flush();
    const runs = this.database.prepare('SELECT * FROM runs WHERE id > ? ORDER BY id LIMIT ?');
    const entries = this.database.prepare(
      'SELECT seq, ts, kind, name, outcome, data FROM entries WHERE run_id = ? ORDER BY seq',
    );
    let after = '';
    for (;;) {
      const rows = runs.all(after, batch) as RunRow[];
      if (rows.length === 0) return;
      after = (rows.at(-1) as RunRow).id;
      yield rows.map((row) => ({
        id: row.id,
        agent: row.agent,
        task: row.task,
        startedAt: row.started_at,
        meta: row.meta,
        entries: entries.all(row.id) as StoredRun['entries'],
      }));
    }
  }

  /**
   * The target side of `tally ledger copy`: runs and entries as stored elsewhere, seq kept; a
   * run or entry (run id, seq) already here is skipped, so copying twice adds nothing.
   */
  importRuns(runs: StoredRun[]): ImportResult {
    this.flush();
    const insertRun = this.database.prepare(
      'INSERT OR IGNORE INTO runs (id, agent, task, started_at, meta) VALUES (?, ?, ?, ?, ?)',
    );
    const insertEntry = this.database.prepare(
      'INSERT OR IGNORE INTO entries (run_id, seq, ts, kind, name, outcome, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    return this.database
      .transaction(() => {
        const added = { runs: 0, entries: 0 };
        for (const run of runs) {
          added.runs += Number(insertRun.run(run.id, run.agent, run.task, run.startedAt, run.meta).changes);
          for (const entry of run.entries)
            added.entries += Number(
              insertEntry.run(run.id, entry.seq, entry.ts, entry.kind, entry.name, entry.outcome, entry.data)
                .changes,
            );
        }
        return added;
      })
      .immediate();
  }

  /**
   * The last writer to leave switches the file back to a rollback journal, so read-only commands
   * can read it in place without creating `-wal`/`-shm` beside it (see `openReadOnlyDatabase`);
   * the next writer switches it to WAL again. With another connection open this fails at once
   * (no wait) and the file stays in WAL mode, which readers then share through those files.
   */
  private leaveRollbackJournal(): void {
    try {
      this.database.pragma('busy_timeout = 0');
      this.database.pragma('journal_mode = DELETE');
    } catch {
      // Best effort: a WAL-mode file is as valid, only read differently (the ledger's folder
      // may also be gone already, or read-only: SQLITE_READONLY_DBMOVED and kin).
    }
  }

  /** Writes what is queued (waiting up to the busy limit) and closes; LEDGER_BUSY if the lock never freed. */
  close(): void {
    if (!this.database.open) return;
    process.removeListener('exit', this.flushOnExit);
    try {
      this.finalFlush(true);
      if (!this.readonly) this.leaveRollbackJournal();
    } finally {
      this.database.close();
    }
  }
}

/**
 * A SQLite file that is not a Tally ledger: one with tables but not Tally's (a `--ledger` typo
 * naming an app's database), or, read-only, one with no tables at all (an empty file). Writing
 * Tally's schema into the first changed another program's data; reading the second failed as
 * "no such table", reported as a bug.
 */
function refuseForeignDatabase(database: SqliteDatabase, path: string, readonly: boolean): void {
  const tables = (
    database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  if (tables.includes('runs') && tables.includes('entries')) return;
  if (tables.length === 0 && !readonly) return; // a new ledger: its schema is made next
  const what =
    tables.length === 0
      ? 'an empty database, with no runs recorded'
      : `another program's database (its tables: ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', …' : ''})`;
  throw new LedgerError(
    'LEDGER_UNAVAILABLE',
    `${path} is not a Tally ledger: it is ${what}. Tally changed nothing in it. Pass --ledger with a ledger file, such as .tally/ledger.db, or a path where a new one can be made.`,
    { path },
  );
}
