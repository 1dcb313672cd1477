import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LedgerError, RunNotFoundError } from '../errors.js';
import { createRunIdGenerator } from '../ids.js';
import { createRedactor, type Redactor, type RedactorOptions } from '../redact.js';
import type { EntryKind, LedgerEntry, NewEntry, RunInfo, RunListing, RunRecord } from './entry.js';
import { applySchema } from './schema.js';

interface EntryRow {
  run_id: string;
  seq: number;
  ts: string;
  kind: string;
  name: string | null;
  outcome: string | null;
  data: string;
}

interface RunRow {
  id: string;
  agent: string;
  task: string;
  started_at: string;
  meta: string;
}

export interface StartRunOptions {
  agent: string;
  task: string;
  meta?: Record<string, unknown>;
  redaction?: RedactorOptions;
}

/** Appends entries for one run. Everything passes through the run's redactor first. */
export interface RunRecorder {
  readonly runId: string;
  readonly redactor: Redactor;
  /** Queues the entry (already redacted); it is written before any read and within one event-loop turn. */
  append(entry: NewEntry): void;
  entries(): LedgerEntry[];
}

interface QueuedRun {
  id: string;
  agent: string;
  task: string;
  startedAt: string;
  meta: string;
}

interface QueuedEntry {
  runId: string;
  ts: string;
  kind: string;
  name: string | null;
  outcome: string | null;
  data: string;
}

function toEntry(row: EntryRow): LedgerEntry {
  return {
    runId: row.run_id,
    seq: row.seq,
    ts: row.ts,
    kind: row.kind as EntryKind,
    ...(row.name === null ? {} : { name: row.name }),
    ...(row.outcome === null ? {} : { outcome: row.outcome }),
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}

function toRun(row: RunRow): RunInfo {
  return {
    id: row.id,
    agent: row.agent,
    task: row.task,
    startedAt: row.started_at,
    meta: JSON.parse(row.meta) as Record<string, unknown>,
  };
}

/**
 * The persistent, append-only ledger: one SQLite database (WAL) per project state folder.
 * Safe for parallel appends within a process and for several processes on one file: each
 * insert assigns its own sequence number under SQLite's write lock.
 *
 * Appends are group-committed: queued in memory and written in one transaction at the end
 * of the current event-loop turn, before any read through this ledger, on close, and on
 * process exit. A hard kill can lose at most the entries of the turn in progress.
 */
export class Ledger {
  readonly path: string;
  private readonly database: Database.Database;
  private readonly insertEntry: Database.Statement;
  private readonly insertRun: Database.Statement;
  private readonly selectEntries: Database.Statement;
  private readonly newRunId = createRunIdGenerator();
  private queue: QueuedEntry[] = [];
  private flushScheduled = false;
  private readonly writeQueue: Database.Transaction<(runs: QueuedRun[], rows: QueuedEntry[]) => void>;
  private runQueue: QueuedRun[] = [];
  private readonly flushOnExit = () => this.flush();

  private constructor(path: string, database: Database.Database) {
    this.path = path;
    this.database = database;
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
    this.writeQueue = database.transaction((runs: QueuedRun[], rows: QueuedEntry[]) => {
      // Runs first: a run's row is in the same commit as its first entries.
      for (const run of runs) this.insertRun.run(run.id, run.agent, run.task, run.startedAt, run.meta);
      const next = new Map<string, number>();
      for (const row of rows) {
        const seq = (next.get(row.runId) ?? (lastSeq.get(row.runId) as number)) + 1;
        next.set(row.runId, seq);
        this.insertEntry.run(row.runId, seq, row.ts, row.kind, row.name, row.outcome, row.data);
      }
    });
    process.once('exit', this.flushOnExit);
    this.selectEntries = database.prepare('SELECT * FROM entries WHERE run_id = ? ORDER BY seq');
  }

  static open(path: string, options: { readonly?: boolean } = {}): Ledger {
    let database: Database.Database;
    try {
      if (!options.readonly) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      database = new Database(path, {
        readonly: options.readonly ?? false,
        fileMustExist: options.readonly ?? false,
        timeout: 15_000,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new LedgerError(
        'LEDGER_UNAVAILABLE',
        `Cannot open the ledger at ${path}: ${reason}. Pass --ledger PATH or set TALLY_LEDGER to a writable file.`,
        { path },
      );
    }
    if (!options.readonly) {
      database.pragma('journal_mode = WAL');
      database.pragma('synchronous = NORMAL');
      applySchema(database);
    }
    return new Ledger(path, database);
  }

  startRun(options: StartRunOptions): RunRecorder {
    const redactor = createRedactor(options.redaction);
    const runId = this.newRunId();
    this.runQueue.push({
      id: runId,
      agent: options.agent,
      task: redactor.redactText(options.task),
      startedAt: new Date().toISOString(),
      meta: JSON.stringify(redactor.redact(options.meta ?? {})),
    });
    this.scheduleFlush();
    return this.recorderFor(runId, redactor);
  }

  /** Append to an existing run, e.g. from a second process that shares the run id. */
  recorderFor(runId: string, redactor: Redactor = createRedactor()): RunRecorder {
    return {
      runId,
      redactor,
      append: (entry) => this.append(runId, redactor, entry),
      entries: () => this.entries(runId),
    };
  }

  private append(runId: string, redactor: Redactor, entry: NewEntry): void {
    this.queue.push({
      runId,
      ts: new Date().toISOString(),
      kind: entry.kind,
      name: entry.name ?? null,
      outcome: entry.outcome ?? null,
      data: JSON.stringify(redactor.redact(entry.data)),
    });
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes every queued entry in one transaction. Reads call it first, so reads see all appends. */
  flush(): void {
    this.flushScheduled = false;
    if ((this.queue.length === 0 && this.runQueue.length === 0) || !this.database.open) return;
    const runs = this.runQueue;
    const rows = this.queue;
    this.runQueue = [];
    this.queue = [];
    this.writeQueue.immediate(runs, rows);
  }

  entries(runId: string): LedgerEntry[] {
    this.flush();
    return (this.selectEntries.all(runId) as EntryRow[]).map(toEntry);
  }

  getRun(runId: string): RunRecord {
    this.flush();
    const row = this.database.prepare('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined;
    if (!row) throw new RunNotFoundError(runId, this.path);
    return { run: toRun(row), entries: this.entries(runId) };
  }

  /** Runs newest first, with their ending when they have one. */
  listRuns(options: { limit?: number; since?: string; agent?: string } = {}): RunListing[] {
    this.flush();
    const rows = this.database
      .prepare(
        `SELECT r.*, e.outcome AS ending_reason, json_extract(e.data, '$.status') AS status, e.ts AS ended_at,
                (SELECT COUNT(*) FROM entries t WHERE t.run_id = r.id AND t.kind = 'tool_call') AS tool_calls
           FROM runs r LEFT JOIN entries e ON e.run_id = r.id AND e.kind = 'end'
          WHERE r.started_at >= @since AND (@agent IS NULL OR r.agent = @agent)
          ORDER BY r.id DESC LIMIT @limit`,
      )
      .all({
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

  /** Entries of some kinds across runs started since a time; backs `tally stats`. */
  entriesSince(since: string, kinds: EntryKind[]): LedgerEntry[] {
    this.flush();
    const placeholders = kinds.map(() => '?').join(', ');
    const rows = this.database
      .prepare(`SELECT * FROM entries WHERE ts >= ? AND kind IN (${placeholders}) ORDER BY ts, run_id, seq`)
      .all(since, ...kinds) as EntryRow[];
    return rows.map(toEntry);
  }

  close(): void {
    if (!this.database.open) return;
    this.flush();
    process.removeListener('exit', this.flushOnExit);
    this.database.close();
  }
}
