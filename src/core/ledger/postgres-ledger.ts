import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { isTallyError, LedgerError, RunNotFoundError, TallyError } from '../errors.js';
import { createFailOpen, type FailOpen } from '../fail-open.js';
import { DEFAULT_BUSY_LIMIT_MS, retryDelay } from './busy-retry.js';
import {
  ENTRY_KINDS,
  type EntryKind,
  type LedgerEntry,
  type RunInfo,
  type RunListing,
  type RunRecord,
} from './entry.js';
import { type COUNT_SQL, type CountRows, foldCounts, type LedgerCounts } from './ledger-counts.js';
import {
  type LedgerProblem,
  notJson,
  orphanedEntries,
  type PurgeResult,
  runOrderProblems,
  type ShapeRow,
  shapeCheck,
  unknownKind,
} from './ledger-maintenance.js';
import { trackOpenLedger } from './open-ledgers.js';
import { PG_COUNT_SQL, PG_LIST_RUNS_SQL, PG_PURGEABLE } from './postgres-queries.js';
import {
  applyPostgresSchema,
  POSTGRES_SCHEMA_VERSION,
  readPostgresSchemaVersion,
} from './postgres-schema.js';
import { redactPostgresUrl, scrubbedCause, scrubPassword } from './postgres-url.js';
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
import { refuseForeignPostgresSchema } from './refuse-foreign-postgres-schema.js';
import type { LedgerOpenOptions } from './sqlite-ledger.js';
import type { DialectSql, StatsRow } from './stats-contributor.js';

/** As SQLite's: appends faster than this share one commit (one round trip for many entries). */
const GROUP_COMMIT_MS = 5;

/** Connections per process: appends are serialized anyway; reads and a commit may overlap. */
const POOL_SIZE = 4;

/**
 * Finished runs whose entries stay in memory after their `end` (what a caller reads right after
 * `runAgent` returns, a sub-run its parent checks). Older ones are read with `getRun`:
 * a long-lived `tally mcp` holds at most this many finished runs, not every run it served.
 */
export const FINISHED_RUNS_KEPT = 64;

/**
 * One group commit as sent: its id goes with it every time it is sent, so a batch whose answer was
 * lost (the server may have committed it) is sent again unchanged and written once (`tally_append_once`).
 */
interface Batch {
  id: string;
  runs: QueuedRun[];
  rows: QueuedEntry[];
}

interface OwnRun {
  run?: QueuedRun;
  entries: LedgerEntry[];
}

/**
 * The ledger in a PostgreSQL database, shared by a team's machines. Same entry semantics as
 * the SQLite ledger: redacted before queuing (RecordingLedger), group-committed (one
 * transaction per GROUP_COMMIT_MS while appends keep coming), each run's entries numbered
 * 1..n in append order under a per-run advisory lock, so several processes on several
 * machines appending to one database lose nothing and duplicate nothing.
 *
 * A run recorded by this process is also kept in memory (`entries`): an agent's own bookkeeping
 * (evidence, net effects, verdict) never waits for a network round trip. Reads across runs go
 * to the database, after this process's queue is committed.
 */
/** Run rows in one statement; a run already stored is left as it is (the first writer's row). */
function insertRuns(
  client: PoolClient,
  runs: readonly Pick<QueuedRun, 'id' | 'agent' | 'task' | 'startedAt' | 'meta'>[],
) {
  return client.query(
    `INSERT INTO runs (id, agent, task, started_at, meta)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
     ON CONFLICT (id) DO NOTHING`,
    [
      runs.map((run) => run.id),
      runs.map((run) => run.agent),
      runs.map((run) => run.task),
      runs.map((run) => run.startedAt),
      runs.map((run) => run.meta),
    ],
  );
}

/**
 * A server that stops answering without a reset (a partition, a dead host) must not hang a
 * command: every query gives up after the busy limit (its outcome unknown: a group commit is
 * then resent, written once by its batch id), and TCP keep-alive notices a dead idle connection.
 */
function boundedWaits(limitMs: number) {
  return { query_timeout: limitMs, keepAlive: true, keepAliveInitialDelayMillis: Math.min(limitMs, 10_000) };
}

/**
 * How long closing waits for a server that already failed to answer (an outage this process saw):
 * one short last try, then the connections are cut, instead of the busy limit twice over (~30 s).
 */
export const CLOSE_AFTER_OUTAGE_MS = 2_000;

/** Maintenance that may rightly take long on a big ledger (VACUUM): its own, wider bound. */
const MAINTENANCE_TIMEOUT_MS = 30 * 60_000;

/** A statement with its own bound (pg reads `query_timeout` from the config; its types leave it out). */
function withTimeout(text: string, timeoutMs: number, values?: unknown[]): QueryConfig {
  const config = { text, values, query_timeout: timeoutMs };
  return config;
}

/** PostgreSQL's insufficient_privilege (42501): a user without the rights, not a server that is down. */
function refusedRights(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '42501';
}

/** `work`, or `undefined` once `ms` have passed (the work is left running, never awaited again). */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), undefined);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class PostgresLedger extends RecordingLedger {
  readonly backend = 'postgres' as const;
  /** The URL without its password: what every message names. */
  readonly path: string;
  private readonly url: string;
  private readonly pool: Pool;
  private readonly busyLimitMs: number;
  private readonly onBusy: ((error: LedgerError) => void) | undefined;
  private readonly failOpen: FailOpen;
  private runQueue: QueuedRun[] = [];
  private queue: QueuedEntry[] = [];
  /** The batch sent and not known to be in: sent again, as it is, before anything queued after it. */
  private unsent: Batch | undefined;
  private readonly own = new Map<string, OwnRun>();
  /** Runs of `own` that have their end entry, oldest first: trimmed to FINISHED_RUNS_KEPT. */
  private readonly finished = new Set<string>();
  /** Batches are written one after another, so a run's entries keep their order across batches. */
  private writing: Promise<boolean> = Promise.resolve(true);
  private timer: NodeJS.Timeout | undefined;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private outage:
    | {
        since: number;
        attempts: number;
        reported?: LedgerError;
        runs: Set<string>;
        /** Runs whose fail_open entry was queued before their end entry (not written again after). */
        noted: Set<string>;
      }
    | undefined;
  private closed = false;
  /** Opened read-only where Tally never wrote (no tables): every read finds nothing. */
  private empty = false;
  private readonly untrack: () => void;
  private exitCommitTried = false;
  /**
   * A process that returns without `close()` (a command that forgot it, an error thrown past
   * it): its event loop empties while entries are still queued (the group-commit timer does not
   * keep a process alive). `beforeExit` lets the commit run — its round trips keep the process
   * alive until it is done. Tried once: a store that stays down must not hold the exit forever
   * (the commit itself gives up at the busy limit; `warnOnExit` then says what was lost).
   */
  private readonly commitBeforeExit = () => {
    if (this.closed || this.exitCommitTried || this.waiting() === 0) return;
    this.exitCommitTried = true;
    void this.commit();
  };
  private readonly warnOnExit = () => {
    const left = this.waiting();
    if (left > 0)
      process.stderr.write(
        `tally: ${left} ledger entries for ${this.path} were not committed before exit (close the ledger first)\n`,
      );
  };

  private constructor(url: string, pool: Pool, options: LedgerOpenOptions) {
    super();
    this.url = url;
    this.path = redactPostgresUrl(url);
    this.pool = pool;
    this.busyLimitMs = options.busyLimitMs ?? DEFAULT_BUSY_LIMIT_MS;
    this.onBusy = options.onBusy;
    // No folder beside a database: fail-opens go to this project's .tally/ unless told otherwise.
    this.failOpen = createFailOpen({
      logPath: options.failOpenLog ?? join(resolve('.tally'), 'fail-open.jsonl'),
    });
    process.once('exit', this.warnOnExit);
    process.on('beforeExit', this.commitBeforeExit);
    this.untrack = trackOpenLedger(this);
  }

  /**
   * Connects and brings the schema up to date (idempotent, under an advisory lock). A server
   * that cannot be reached is LEDGER_UNAVAILABLE, naming the URL without its password.
   */
  static async open(url: string, options: LedgerOpenOptions = {}): Promise<PostgresLedger> {
    const { default: pg } = await import('pg');
    const limit = options.busyLimitMs ?? DEFAULT_BUSY_LIMIT_MS;
    const pool = new pg.Pool({
      connectionString: url,
      max: POOL_SIZE,
      connectionTimeoutMillis: limit,
      ...boundedWaits(limit),
      // Idle connections must not keep a finished command alive.
      allowExitOnIdle: true,
      application_name: 'tally',
    });
    // A connection the server drops while idle: the next query reconnects; never crash on it.
    pool.on('error', () => undefined);
    // Likewise while a client is checked out: its query rejects (the batch is retried); the
    // client's own 'error' event must not become an uncaught exception that loses the queue.
    pool.on('connect', (client) => client.on('error', () => undefined));
    let client: PoolClient | undefined;
    let found = 0;
    try {
      client = await pool.connect();
      // Read-only: the schema as it is (an older one read as is, none read as no runs).
      // Another program's tables are refused here too (a SELECT: nothing is changed).
      if (options.readonly) await refuseForeignPostgresSchema(client, redactPostgresUrl(url));
      found = options.readonly
        ? await readPostgresSchemaVersion(client)
        : await applyPostgresSchema(client, redactPostgresUrl(url));
    } catch (error) {
      client?.release(true);
      client = undefined;
      await pool.end().catch(() => undefined);
      // Reached, but not a Tally ledger (another program's tables): said as it is.
      if (isTallyError(error)) throw error;
      const reason = scrubPassword(
        error instanceof Error ? error.message || String(error) : String(error),
        url,
      );
      throw new LedgerError(
        'LEDGER_UNAVAILABLE',
        refusedRights(error)
          ? `The PostgreSQL ledger at ${redactPostgresUrl(url)} refused this user: ${reason}. It is a permission problem, not an outage: recording runs needs CREATE on the schema the first time and INSERT on Tally's tables (read-only commands need SELECT only); grant them, or pass --ledger with another URL.`
          : `Cannot reach the PostgreSQL ledger at ${redactPostgresUrl(url)}: ${reason}. Check that the server is running and accepts this user, or pass --ledger with another URL or a file.`,
        { path: redactPostgresUrl(url) },
        // The driver's error (its code: 28P01, ECONNREFUSED) without the password.
        { cause: scrubbedCause(error, url) },
      );
    } finally {
      client?.release();
    }
    // Reached, but written by a newer Tally: not an outage, so not "check that the server is running".
    if (found > POSTGRES_SCHEMA_VERSION && !options.readonly) {
      await pool.end().catch(() => undefined);
      throw new LedgerError(
        'LEDGER_UNAVAILABLE',
        `The PostgreSQL ledger at ${redactPostgresUrl(url)} has schema version ${found}, newer than this Tally's ${POSTGRES_SCHEMA_VERSION}: upgrade Tally to record runs in it (read-only commands still read it).`,
        { path: redactPostgresUrl(url) },
      );
    }
    const ledger = new PostgresLedger(url, pool, options);
    ledger.empty = found === 0 && options.readonly === true;
    return ledger;
  }

  protected queueRun(run: QueuedRun): void {
    this.own.set(run.id, { run, entries: [] });
    this.runQueue.push(run);
    this.schedule();
  }

  protected queueEntry(entry: QueuedEntry): void {
    // A run that ends while the server is not answering: its fail_open entry goes before its end
    // entry, so the run reads as held up by the ledger, not as one that never noticed.
    const outage = this.outage;
    if (entry.kind === 'end' && outage && !outage.noted.has(entry.runId)) {
      outage.noted.add(entry.runId);
      outage.runs.add(entry.runId);
      this.queueEntry({
        runId: entry.runId,
        ts: entry.ts,
        kind: 'fail_open',
        name: 'ledger',
        outcome: 'ledger-unavailable',
        data: JSON.stringify({
          component: 'ledger',
          why: 'ledger-unavailable',
          waitedMs: Date.now() - outage.since,
          during: true,
        }),
      });
    }
    let own = this.own.get(entry.runId);
    if (!own) {
      own = { entries: [] };
      this.own.set(entry.runId, own);
    }
    own.entries.push(toEntry({ ...entry, run_id: entry.runId, seq: (own.entries.at(-1)?.seq ?? 0) + 1 }));
    this.queue.push(entry);
    if (entry.kind === 'end') this.finish(entry.runId);
    this.schedule();
  }

  /** Keeps the newest FINISHED_RUNS_KEPT finished runs in memory; the store keeps them all. */
  private finish(runId: string): void {
    this.finished.delete(runId);
    this.finished.add(runId);
    for (const oldest of this.finished) {
      if (this.finished.size <= FINISHED_RUNS_KEPT) break;
      this.finished.delete(oldest);
      this.own.delete(oldest);
    }
  }

  /**
   * The entries this process recorded for a run, in order, without a round trip (what the
   * agent loop reads after each call, and right after the run ends). A run recorded elsewhere,
   * or one of this process's finished runs older than the last FINISHED_RUNS_KEPT, is read with
   * `getRun`.
   */
  entries(runId: string): LedgerEntry[] {
    const own = this.own.get(runId);
    if (!own)
      throw new TallyError(
        'RUN_NOT_IN_PROCESS',
        `Run ${runId} was not recorded by this process, or finished before its last ${FINISHED_RUNS_KEPT} finished runs; read it from ${this.path} with \`await ledger.getRun(runId)\`.`,
        { runId },
      );
    return own.entries.map((entry) => ({ ...entry }));
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    // During an outage the pending retry writes everything.
    const wait = this.outage
      ? retryDelay(this.outage.attempts)
      : this.lastFlushAt + GROUP_COMMIT_MS - performance.now();
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.writeQueued();
      },
      Math.max(0, wait),
    );
    this.timer.unref();
  }

  /** Writes what is queued now, after any batch in flight; true when it all committed. */
  private writeQueued(): Promise<boolean> {
    this.writing = this.writing.then(() => this.writeOnce());
    return this.writing;
  }

  /** Runs and entries not yet known to be in the database (queued, or sent without an answer). */
  private waiting(): number {
    return (
      this.queue.length +
      this.runQueue.length +
      (this.unsent ? this.unsent.rows.length + this.unsent.runs.length : 0)
    );
  }

  /**
   * Sends the batch whose answer was lost first (as it was, same id), then what is queued. A failed send may still have committed (the connection dropped after the
   * server's COMMIT): it stays `unsent` and is sent again unchanged, and the server skips a batch
   * id it already has, so a retry never writes an entry twice.
   */
  private async writeOnce(): Promise<boolean> {
    // A retry is followed by what was queued meanwhile; a first send is one group commit.
    const rounds = this.unsent ? 2 : 1;
    for (let round = 0; round < rounds; round++) {
      if (!this.unsent) {
        if (this.queue.length === 0 && this.runQueue.length === 0) return true;
        this.unsent = { id: randomUUID(), runs: this.runQueue, rows: this.queue };
        this.runQueue = [];
        this.queue = [];
      }
      const batch = this.unsent;
      this.lastFlushAt = performance.now();
      try {
        await this.writeBatch(batch);
      } catch (error) {
        this.unavailable(batch.rows, error);
        return false;
      }
      this.unsent = undefined;
      this.available(batch.rows);
    }
    return true;
  }

  /** `work` inside BEGIN … COMMIT on one pooled client (purge, import); ROLLBACK on a throw. */
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * One group commit: one statement, so one round trip and one transaction (`tally_append_once`,
   * postgres-schema.ts: the batch id, unless already there; the runs, per-run locks in id order,
   * the entries numbered after each run's last). A connection whose write failed is dropped from
   * the pool (it may be the cause).
   */
  private async writeBatch({ id, runs, rows }: Batch): Promise<void> {
    await this.pool.query(
      `SELECT tally_append_once($1, $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                                $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])`,
      [
        id,
        runs.map((run) => run.id),
        runs.map((run) => run.agent),
        runs.map((run) => run.task),
        runs.map((run) => run.startedAt),
        runs.map((run) => run.meta),
        rows.map((row) => row.runId),
        rows.map((row) => row.ts),
        rows.map((row) => row.kind),
        rows.map((row) => row.name),
        rows.map((row) => row.outcome),
        rows.map((row) => row.data),
      ],
    );
  }

  private unavailable(rows: QueuedEntry[], error: unknown): void {
    const now = Date.now();
    this.outage ??= { since: now, attempts: 0, runs: new Set(), noted: new Set() };
    const outage = this.outage;
    outage.attempts += 1;
    for (const row of rows) outage.runs.add(row.runId);
    if (!outage.reported && now - outage.since >= this.busyLimitMs) {
      const reason = scrubPassword(error instanceof Error ? error.message : String(error), this.url);
      outage.reported = new LedgerError(
        'LEDGER_BUSY',
        `The PostgreSQL ledger at ${this.path} has not taken a write for ${Math.round((now - outage.since) / 1000)} s (${reason}); ${this.waiting()} entries are held in memory and will be written when it answers.`,
        { path: this.path, waitedMs: now - outage.since, queued: this.waiting() },
        { cause: scrubbedCause(error, this.url) },
      );
      this.failOpen('ledger', 'ledger-unavailable');
      this.onBusy?.(outage.reported);
    }
    this.schedule();
  }

  protected outageReported(): LedgerError | undefined {
    return this.outage?.reported;
  }

  /** After an outage reported as LEDGER_BUSY, each run it held up gets a fail_open entry saying so. */
  private available(rows: QueuedEntry[]): void {
    const outage = this.outage;
    if (!outage) return;
    this.outage = undefined;
    if (!outage.reported) return;
    for (const row of rows) outage.runs.add(row.runId);
    const waitedMs = Date.now() - outage.since;
    for (const runId of outage.runs)
      if (!outage.noted.has(runId))
        this.recorderFor(runId).append({
          kind: 'fail_open',
          name: 'ledger',
          outcome: 'ledger-unavailable',
          data: { component: 'ledger', why: 'ledger-unavailable', waitedMs },
        });
  }

  /**
   * Commits the queue, retrying an unreachable server at most `limitMs`. True once everything
   * queued is in the database; false at the deadline (the entries stay queued and retried).
   */
  async commit(limitMs = this.busyLimitMs): Promise<boolean> {
    const deadline = Date.now() + limitMs;
    for (let attempt = 0; ; attempt++) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
      // A write the server never answers is not awaited past the deadline (it times out itself).
      if ((await within(this.writeQueued(), deadline - Date.now())) && this.waiting() === 0) return true;
      const left = deadline - Date.now();
      if (left <= 0) {
        this.schedule();
        return false;
      }
      await new Promise((done) => setTimeout(done, Math.min(retryDelay(attempt), left)));
    }
  }

  /** Reads see this process's appends: its queue is committed first (as SQLite's reads flush). */
  private async read<T>(work: (query: Pool['query']) => Promise<T>, timeoutMs?: number): Promise<T> {
    if (this.empty) return work((async () => ({ rows: [], rowCount: 0 })) as unknown as Pool['query']);
    if (this.waiting() > 0) await this.commit();
    const query =
      timeoutMs === undefined
        ? this.pool.query.bind(this.pool)
        : (text: string, values?: unknown[]) => this.pool.query(withTimeout(text, timeoutMs, values));
    try {
      return await work(query as Pool['query']);
    } catch (error) {
      if (isTallyError(error)) throw error;
      const reason = scrubPassword(error instanceof Error ? error.message : String(error), this.url);
      throw new LedgerError(
        'LEDGER_UNAVAILABLE',
        `Cannot read the PostgreSQL ledger at ${this.path}: ${reason}.`,
        { path: this.path },
        { cause: scrubbedCause(error, this.url) },
      );
    }
  }

  async hasRun(runId: string): Promise<boolean> {
    if (this.own.get(runId)?.run) return true;
    return this.read(
      async (query) => (await query('SELECT 1 FROM runs WHERE id = $1', [runId])).rowCount !== 0,
    );
  }

  async getRun(runId: string): Promise<RunRecord> {
    return this.read(async (query) => {
      const run = await query<RunRow>('SELECT * FROM runs WHERE id = $1', [runId]);
      const row = run.rows[0];
      if (!row) throw new RunNotFoundError(runId, this.path);
      const entries = await query<EntryRow>('SELECT * FROM entries WHERE run_id = $1 ORDER BY seq', [runId]);
      return { run: toRun(row), entries: entries.rows.map(toEntry) };
    });
  }

  async getRunInfo(runId: string): Promise<RunInfo> {
    return this.read(async (query) => {
      const row = (await query<RunRow>('SELECT * FROM runs WHERE id = $1', [runId])).rows[0];
      if (!row) throw new RunNotFoundError(runId, this.path);
      return toRun(row);
    });
  }

  async runEntriesAfter(runId: string, afterSeq: number, limit: number): Promise<LedgerEntry[]> {
    return this.read(async (query) => {
      const page = await query<EntryRow>(
        'SELECT * FROM entries WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [runId, afterSeq, limit],
      );
      return page.rows.map(toEntry);
    });
  }

  async listRuns(options: { limit?: number; since?: string; agent?: string } = {}): Promise<RunListing[]> {
    return this.read(async (query) => {
      const result = await query<
        RunRow & {
          ending_reason: string | null;
          status: string | null;
          ended_at: string | null;
          tool_calls: number;
        }
      >(PG_LIST_RUNS_SQL, [options.since ?? '', options.agent ?? null, options.limit ?? null]);
      return result.rows.map((row) => ({
        ...toRun(row),
        endingReason: row.ending_reason,
        status: row.status,
        endedAt: row.ended_at,
        toolCalls: Number(row.tool_calls),
      }));
    });
  }

  async counts(since: string): Promise<LedgerCounts> {
    return this.read(async (query) => {
      const all = async (name: keyof typeof COUNT_SQL) =>
        (await query(PG_COUNT_SQL[name], [since])).rows as Record<string, unknown>[];
      const rows: CountRows = {
        runsByEnding: await all('runsByEnding'),
        fires: await all('fires'),
        rejections: await all('rejections'),
      };
      return foldCounts(rows);
    });
  }

  /** A stats contributor's query, `$1` bound to `since` (see `StatsContributor`). */
  async statsRows(sql: DialectSql, since: string): Promise<StatsRow[]> {
    return this.read(async (query) => (await query(sql.postgres, [since])).rows as StatsRow[]);
  }

  async entriesSince(since: string, kinds: EntryKind[]): Promise<LedgerEntry[]> {
    return this.read(async (query) => {
      const result = await query<EntryRow>(
        'SELECT * FROM entries WHERE ts >= $1 AND kind = ANY($2::text[]) ORDER BY ts, run_id, seq',
        [since, kinds],
      );
      return result.rows.map(toEntry);
    });
  }

  /** Retention: removes the runs wholly before `before`, in one transaction that alone may delete. */
  async purge(before: string, options: { dryRun?: boolean } = {}): Promise<PurgeResult> {
    await this.commit();
    return await this.transaction(async (client) => {
      // The ids once, then everything by them: once a run's entries are gone, its end entry no
      // longer marks it purgeable, so the query could not be asked again.
      const ids = (await client.query<{ id: string }>(PG_PURGEABLE, [before])).rows.map((row) => row.id);
      const entries = await client.query<{ entries: number }>(
        'SELECT COUNT(*)::int AS entries FROM entries WHERE run_id = ANY($1::text[])',
        [ids],
      );
      const result = { runs: ids.length, entries: Number(entries.rows[0]?.entries) };
      if (!options.dryRun && result.runs > 0) {
        // Lifts the append-only trigger for this transaction only (see postgres-schema.ts).
        await client.query("SET LOCAL tally.purging = 'on'");
        await client.query(
          withTimeout('DELETE FROM entries WHERE run_id = ANY($1::text[])', MAINTENANCE_TIMEOUT_MS, [ids]),
        );
        await client.query(
          withTimeout('DELETE FROM runs WHERE id = ANY($1::text[])', MAINTENANCE_TIMEOUT_MS, [ids]),
        );
      }
      return result;
    });
  }

  /** Gives purged rows' space back for reuse (VACUUM; the server keeps the files). */
  async vacuum(): Promise<void> {
    await this.read(async (query) => {
      await query('VACUUM (ANALYZE) entries');
      await query('VACUUM (ANALYZE) runs');
    }, MAINTENANCE_TIMEOUT_MS);
  }

  /** The ledger's own invariants (PostgreSQL checks its pages itself); empty when all hold. */
  async check(limit = 20): Promise<LedgerProblem[]> {
    if (this.empty) return [];
    return this.read(async (query) => {
      const problems: LedgerProblem[] = [];
      const version = Number((await query('SELECT version FROM tally_schema')).rows[0]?.version ?? 0);
      if (version > POSTGRES_SCHEMA_VERSION)
        problems.push({
          check: 'schema',
          message: `schema version ${version} is newer than this Tally's ${POSTGRES_SCHEMA_VERSION}: upgrade Tally`,
        });
      const triggers = new Set(
        (await query<{ tgname: string }>('SELECT tgname FROM pg_trigger WHERE NOT tgisinternal')).rows.map(
          (row) => row.tgname,
        ),
      );
      for (const trigger of ['entries_append_only', 'runs_append_only'])
        if (!triggers.has(trigger))
          problems.push({ check: 'schema', message: `the append-only trigger ${trigger} is missing` });
      for (const row of (
        await query(
          `SELECT run_id, COUNT(*)::int AS n FROM entries e WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = e.run_id)
            GROUP BY run_id LIMIT ${limit}`,
        )
      ).rows)
        problems.push(orphanedEntries(row));
      for (const row of (
        await query(
          `SELECT run_id, MIN(seq) AS first, MAX(seq) AS last, COUNT(*)::int AS n,
                  COUNT(*) FILTER (WHERE kind = 'end')::int AS ends
             FROM entries GROUP BY run_id
           HAVING MIN(seq) <> 1 OR MAX(seq) <> COUNT(*) OR COUNT(*) FILTER (WHERE kind = 'end') > 1 LIMIT ${limit}`,
        )
      ).rows)
        problems.push(...runOrderProblems(row));
      for (const row of (
        await query(
          `SELECT kind, COUNT(*)::int AS n FROM entries WHERE NOT (kind = ANY($1::text[])) GROUP BY kind LIMIT ${limit}`,
          [[...ENTRY_KINDS]],
        )
      ).rows)
        problems.push(unknownKind(row));
      problems.push(...(await this.shapeProblems(limit)));
      problems.push(...(await this.notJsonRows(limit)));
      return problems;
    }, MAINTENANCE_TIMEOUT_MS);
  }

  /** Every entry's data against its kind's schema, a page at a time (keyset on run and seq). */
  private async shapeProblems(limit: number): Promise<LedgerProblem[]> {
    const shapes = shapeCheck(limit);
    let after = { run: '', seq: 0 };
    for (;;) {
      const page = await this.pool.query<ShapeRow>(
        `SELECT run_id, seq, kind, data FROM entries WHERE (run_id, seq) > ($1, $2) ORDER BY run_id, seq LIMIT 5000`,
        [after.run, after.seq],
      );
      for (const row of page.rows) shapes.see(row);
      const last = page.rows.at(-1);
      if (!last || page.rows.length < 5000) return shapes.problems();
      after = { run: last.run_id, seq: Number(last.seq) };
    }
  }

  /**
   * Entries whose data and runs whose meta are not JSON (the columns are text, as SQLite's, so
   * `ledger copy` moves bytes unchanged; nothing but Tally's writer keeps them JSON). PostgreSQL
   * 15 has no "is this valid JSON" test without raising, so a session-local function (pg_temp,
   * gone with the connection) catches the cast's error; 16 and later have pg_input_is_valid.
   */
  private async notJsonRows(limit: number): Promise<LedgerProblem[]> {
    const client = await this.pool.connect();
    try {
      const version = Number((await client.query('SHOW server_version_num')).rows[0]?.server_version_num);
      let valid = "pg_input_is_valid($column, 'jsonb')";
      if (version < 160000) {
        await client.query(
          `CREATE OR REPLACE FUNCTION pg_temp.tally_is_json(value text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
           BEGIN PERFORM value::jsonb; RETURN true; EXCEPTION WHEN others THEN RETURN false; END $$`,
        );
        valid = 'pg_temp.tally_is_json($column)';
      }
      const entries = await client.query(
        withTimeout(
          `SELECT run_id, seq FROM entries WHERE NOT ${valid.replace('$column', 'data')} ORDER BY run_id, seq LIMIT ${limit}`,
          MAINTENANCE_TIMEOUT_MS,
        ),
      );
      const runs = await client.query(
        withTimeout(
          `SELECT id FROM runs WHERE NOT ${valid.replace('$column', 'meta')} ORDER BY id LIMIT ${limit}`,
          MAINTENANCE_TIMEOUT_MS,
        ),
      );
      return [...entries.rows, ...runs.rows].map(notJson);
    } finally {
      client.release();
    }
  }

  async *exportRuns(batch = 200): AsyncGenerator<StoredRun[]> {
    let after = '';
    for (;;) {
      const runs = await this.read((query) =>
        query<RunRow>('SELECT * FROM runs WHERE id > $1 ORDER BY id LIMIT $2', [after, batch]),
      );
      if (runs.rows.length === 0) return;
      after = (runs.rows.at(-1) as RunRow).id;
      const entries = await this.read((query) =>
        query<EntryRow>('SELECT * FROM entries WHERE run_id = ANY($1::text[]) ORDER BY run_id, seq', [
          runs.rows.map((row) => row.id),
        ]),
      );
      const byRun = new Map<string, StoredRun['entries']>();
      for (const { run_id, ...entry } of entries.rows) {
        const list = byRun.get(run_id) ?? [];
        list.push({ ...entry, seq: Number(entry.seq) });
        byRun.set(run_id, list);
      }
      yield runs.rows.map((row) => ({
        id: row.id,
        agent: row.agent,
        task: row.task,
        startedAt: row.started_at,
        meta: row.meta,
        entries: byRun.get(row.id) ?? [],
      }));
    }
  }

  /** Runs and entries as stored elsewhere (seq kept); those already here are skipped. */
  async importRuns(runs: StoredRun[]): Promise<ImportResult> {
    await this.commit();
    return await this.transaction(async (client) => {
      const inserted = await insertRuns(client, runs);
      const entries = runs.flatMap((run) => run.entries.map((entry) => ({ runId: run.id, ...entry })));
      const added = await client.query(
        `INSERT INTO entries (run_id, seq, ts, kind, name, outcome, data)
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         ON CONFLICT (run_id, seq) DO NOTHING`,
        [
          entries.map((entry) => entry.runId),
          entries.map((entry) => entry.seq),
          entries.map((entry) => entry.ts),
          entries.map((entry) => entry.kind),
          entries.map((entry) => entry.name),
          entries.map((entry) => entry.outcome),
          entries.map((entry) => entry.data),
        ],
      );
      return { runs: inserted.rowCount ?? 0, entries: added.rowCount ?? 0 };
    });
  }

  /**
   * A lock held across every machine that uses this database, by name (a run's cleanup): a
   * session advisory lock on its own connection, so the server releases it when this process
   * ends or its connection drops (a crashed holder leaves nothing behind). Undefined when
   * another session holds it; else the release.
   */
  async tryLock(name: string): Promise<(() => Promise<void>) | undefined> {
    const client = await this.pool.connect();
    try {
      const taken = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
        [name],
      );
      if (taken.rows[0]?.locked !== true) {
        client.release();
        return undefined;
      }
    } catch (error) {
      client.release(true);
      throw error;
    }
    return async () => {
      // Closing the connection releases the lock too: a failed unlock drops it.
      await client
        .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name])
        .then(() => client.release())
        .catch(() => client.release(true));
    };
  }

  /**
   * Drops every pooled connection at once: after an outage, a connection stuck on a silent server
   * (SIGSTOPped, partitioned) would hold `pool.end()` and the process until its query timeout.
   */
  private cutConnections(): void {
    const clients = (
      this.pool as unknown as { _clients?: { connection?: { stream?: { destroy(): void } } }[] }
    )._clients;
    for (const client of clients ?? []) client.connection?.stream?.destroy();
  }

  /**
   * Commits what is queued (retrying up to the busy limit; after an outage, CLOSE_AFTER_OUTAGE_MS)
   * and closes the pool; LEDGER_BUSY if it never went in.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    process.removeListener('exit', this.warnOnExit);
    process.removeListener('beforeExit', this.commitBeforeExit);
    this.untrack();
    // A server already known not to answer is given one short last chance, not the busy limit
    // again: closing after an outage took ~30 s (a commit, then the pool's end, each bounded by it).
    const outage = this.outage !== undefined;
    const limitMs = outage ? Math.min(CLOSE_AFTER_OUTAGE_MS, this.busyLimitMs) : this.busyLimitMs;
    let lostConnection = outage;
    try {
      if (!(await this.commit(limitMs))) {
        lostConnection = true;
        this.failOpen('ledger', 'ledger-unavailable');
        const lost = this.waiting();
        // Not the outage's own report ("held in memory, written when it answers"): closing, they are lost.
        const runs = [
          ...new Set([
            ...(this.outage?.runs ?? []),
            ...[...(this.unsent?.rows ?? []), ...this.queue].map((row) => row.runId),
          ]),
        ];
        throw new LedgerError(
          'LEDGER_BUSY',
          `The PostgreSQL ledger at ${this.path} did not take the last ${lost} entries within ${Math.round((outage ? Date.now() - (this.outage?.since ?? Date.now()) : limitMs) / 1000)} s; they were NOT written (incomplete in the ledger: ${runs.join(', ') || 'no run'}).`,
          { path: this.path, queued: lost, runIds: runs },
        );
      }
    } finally {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      // After an outage the connections are cut (one stuck on a silent server would hold the
      // process until its query timeout); otherwise bounded too.
      if (lostConnection) this.cutConnections();
      await within(
        this.pool.end().catch(() => undefined),
        lostConnection ? CLOSE_AFTER_OUTAGE_MS : this.busyLimitMs,
      );
    }
  }
}
