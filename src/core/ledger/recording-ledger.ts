import { AsyncLocalStorage } from 'node:async_hooks';
import type { LedgerError } from '../errors.js';
import { createRunIdGenerator } from '../ids.js';
import { createRedactor, type Redactor, type RedactorOptions } from '../redact.js';
import type { LedgerEntry, NewEntry } from './entry.js';
import { entryDataProblems } from './entry-schemas.js';

export interface StartRunOptions {
  agent: string;
  task: string;
  meta?: Record<string, unknown>;
  redaction?: RedactorOptions;
  /** Values known to be secret (a login's password, a session cookie): scrubbed wherever they reappear. */
  knownSecrets?: Iterable<string>;
}

/** Appends entries for one run. Everything passes through the run's redactor first. */
export interface RunRecorder {
  readonly runId: string;
  readonly redactor: Redactor;
  /**
   * Queues the entry (already redacted); it is written before any read and within one event-loop
   * turn. Returns the entry as queued (its data redacted) where the recorder has it, so an observer
   * of the run is told the same data without redacting it a second time.
   */
  append(entry: NewEntry): NewEntry | undefined;
  entries(): LedgerEntry[];
  /** Commits everything queued (see `Ledger.commit`): false if the store stayed unavailable past the limit. */
  commit(limitMs?: number): Promise<boolean>;
  /**
   * The store's LEDGER_BUSY while it has taken no write for longer than the busy limit (the
   * outage is ongoing), else undefined: a change made now could not be recorded. Absent on a
   * recorder that cannot tell.
   */
  ledgerDown?(): LedgerError | undefined;
}

/**
 * Appends through `recorder` and returns the entry as the ledger stores it (its data redacted):
 * the recorder's queued copy, or — from a recorder that returns none — redacted here. For
 * wrappers that tell an observer about each entry without redacting it twice.
 */
export function appendAsRecorded(recorder: RunRecorder, entry: NewEntry): NewEntry {
  return recorder.append(entry) ?? ({ ...entry, data: recorder.redactor.redact(entry.data) } as NewEntry);
}

/**
 * `recorder` with each append also seen by `seen`, given the entry as the ledger stores it
 * (`appendAsRecorded`): for wrappers that count or tell about entries, redacting each once.
 */
export function observedRecorder(
  recorder: RunRecorder,
  seen: (recorded: NewEntry, entry: NewEntry) => void,
): RunRecorder {
  return {
    runId: recorder.runId,
    redactor: recorder.redactor,
    entries: () => recorder.entries(),
    commit: (limitMs) => recorder.commit(limitMs),
    ...(recorder.ledgerDown ? { ledgerDown: () => recorder.ledgerDown?.() } : {}),
    append: (entry) => {
      const recorded = appendAsRecorded(recorder, entry);
      seen(recorded, entry);
      return recorded;
    },
  };
}

/** A run's start row as it is queued for the store: already redacted, meta as JSON text. */
export interface QueuedRun {
  id: string;
  agent: string;
  task: string;
  startedAt: string;
  meta: string;
}

/** An entry as it is queued for the store: already redacted, data as JSON text; its seq comes at commit. */
export interface QueuedEntry {
  runId: string;
  ts: string;
  kind: string;
  name: string | null;
  outcome: string | null;
  data: string;
}

/** A stored entry row (either backend): what `toEntry` turns into a LedgerEntry. */
export interface EntryRow {
  run_id: string;
  seq: number;
  ts: string;
  kind: string;
  name: string | null;
  outcome: string | null;
  data: string;
}

export interface RunRow {
  id: string;
  agent: string;
  task: string;
  started_at: string;
  meta: string;
}

/** A run as `tally ledger copy` moves it: the stored rows as they are, seq and JSON text kept. */
export interface StoredRun extends QueuedRun {
  entries: Omit<EntryRow, 'run_id'>[];
}

/** What `importRuns` added: rows already in the target (same run id, same seq) are skipped. */
export interface ImportResult {
  runs: number;
  entries: number;
}

/**
 * A stored row as an entry: its data is checked against its kind's schema here, where it comes
 * out of the store, so readers get typed fields. A row that does not fit (or whose data is not
 * JSON) becomes a `malformed` entry carrying its problems: nothing is coerced, no reader crashes.
 */
/** The fields of an entry every row has, whatever its data. */
export function entryHead(row: EntryRow): Pick<LedgerEntry, 'runId' | 'seq' | 'ts' | 'name' | 'outcome'> {
  return {
    runId: row.run_id,
    seq: Number(row.seq),
    ts: row.ts,
    ...(row.name === null ? {} : { name: row.name }),
    ...(row.outcome === null ? {} : { outcome: row.outcome }),
  };
}

export function toEntry(row: EntryRow): LedgerEntry {
  const head = entryHead(row);
  let data: unknown;
  try {
    data = JSON.parse(row.data);
  } catch {
    return { ...head, kind: 'malformed', storedKind: row.kind, data: {}, problems: ['data is not JSON'] };
  }
  const problems = entryDataProblems(row.kind, data);
  if (problems.length === 0) return { ...head, kind: row.kind, data } as LedgerEntry;
  const record = data !== null && typeof data === 'object' && !Array.isArray(data);
  return {
    ...head,
    kind: 'malformed',
    storedKind: row.kind,
    data: record ? (data as Record<string, unknown>) : {},
    problems,
  };
}

export function toRun(row: RunRow): import('./entry.js').RunInfo {
  return {
    id: row.id,
    agent: row.agent,
    task: row.task,
    startedAt: row.started_at,
    meta: JSON.parse(row.meta) as Record<string, unknown>,
  };
}

/**
 * The services every backend shares, in front of its store: run ids, recorders, and redaction
 * before anything is queued — a store (SQLite, PostgreSQL) only ever sees scrubbed rows.
 */
export abstract class RecordingLedger {
  private readonly secretsScope = new AsyncLocalStorage<readonly string[]>();
  /** Secret for every run this ledger records (see `knowSecrets`). */
  private readonly ledgerSecrets: string[] = [];
  private readonly newRunId = createRunIdGenerator();

  /** Queues a run's start row (already redacted) for the next commit. */
  protected abstract queueRun(run: QueuedRun): void;
  /** Queues an entry (already redacted) for the next commit. */
  protected abstract queueEntry(entry: QueuedEntry): void;
  /** A run's entries as this process sees them, in order (see each backend). */
  abstract entries(runId: string): LedgerEntry[];
  abstract commit(limitMs?: number): Promise<boolean>;
  /** The outage reported as LEDGER_BUSY while it lasts (see `RunRecorder.ledgerDown`). */
  protected abstract outageReported(): LedgerError | undefined;

  /**
   * Runs `work` with values known to be secret: every run it starts (however deep, e.g. in
   * an agent loop) scrubs them wherever they reappear. Scoped to `work`'s async calls only.
   */
  withKnownSecrets<T>(secrets: Iterable<string>, work: () => T): T {
    return this.secretsScope.run([...(this.secretsScope.getStore() ?? []), ...secrets], work);
  }

  /**
   * Values secret for every run this ledger records from now on, in any scope, runs already
   * under way included: the credentials the process itself was given (a model's API key that a
   * provider's error message echoes), a session cookie an app rotated mid-run.
   */
  knowSecrets(secrets: Iterable<string>): void {
    this.ledgerSecrets.push(...secrets);
  }

  startRun(options: StartRunOptions): RunRecorder {
    const redactor = createRedactor({
      ...options.redaction,
      knownSecrets: [...(options.knownSecrets ?? []), ...(this.secretsScope.getStore() ?? [])],
      followedSecrets: this.ledgerSecrets,
    });
    const runId = this.newRunId();
    this.queueRun({
      id: runId,
      agent: options.agent,
      task: redactor.redactText(options.task),
      startedAt: new Date().toISOString(),
      meta: JSON.stringify(redactor.redact(options.meta ?? {})),
    });
    return this.recorderFor(runId, redactor);
  }

  /** Append to an existing run, e.g. from a second process that shares the run id. */
  recorderFor(
    runId: string,
    redactor: Redactor = createRedactor({ followedSecrets: this.ledgerSecrets }),
  ): RunRecorder {
    return {
      runId,
      redactor,
      append: (entry) => {
        const queued = { ...entry, data: redactor.redact(entry.data) } as NewEntry;
        this.queueEntry({
          runId,
          ts: new Date().toISOString(),
          kind: entry.kind,
          name: entry.name ?? null,
          outcome: entry.outcome ?? null,
          data: JSON.stringify(queued.data),
        });
        return queued;
      },
      entries: () => this.entries(runId),
      commit: (limitMs) => this.commit(limitMs),
      ledgerDown: () => this.outageReported(),
    };
  }
}
