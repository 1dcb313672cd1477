import type { LedgerEntry } from './entry.js';
import { type EntryRow, entryHead } from './recording-ledger.js';

/** The most entry text (characters) kept: past it everything is dropped and reads go to the store. */
const MAX_KEPT_CHARS = 16 * 1024 * 1024;
/** The most runs kept (a long-lived server starts runs without end, some with no entries). */
const MAX_KEPT_RUNS = 10_000;

/**
 * The rows this process committed for the runs it started, exactly as written (the JSON text
 * the store holds, the seq it assigned), so reading such a run back — the verifier and the
 * run's finish each read it (issue 22) — needs no SELECT and no schema check of data this
 * process produced from typed entries. Whenever the store may hold more than what is kept
 * (another process appended to the run, a purge, an import) the rows are not used.
 */
export class OwnEntries {
  private readonly runs = new Map<string, EntryRow[]>();
  private keptChars = 0;

  /** A run this process started: its rows are kept from its first. */
  started(runId: string): void {
    if (this.runs.size >= MAX_KEPT_RUNS) {
      this.runs.clear();
      this.keptChars = 0;
    }
    this.runs.set(runId, []);
  }

  /** Rows of a committed batch, with the seqs the store assigned, in order. */
  committed(rows: readonly EntryRow[]): void {
    for (const row of rows) {
      const kept = this.runs.get(row.run_id);
      if (!kept) continue;
      // A gap: another process appended to this run in between, and its rows are not here.
      if (row.seq !== kept.length + 1) {
        this.forget(row.run_id);
        continue;
      }
      if (this.keptChars + row.data.length > MAX_KEPT_CHARS) {
        // Bounded for a long-lived process: what is dropped is read from the store again.
        this.runs.clear();
        this.keptChars = 0;
        continue;
      }
      kept.push(row);
      this.keptChars += row.data.length;
    }
  }

  /**
   * The run's entries when every row the store has for it (`storedLastSeq`, asked only then) is
   * one this process kept; otherwise undefined, and the caller reads the store.
   */
  entries(runId: string, storedLastSeq: () => number): LedgerEntry[] | undefined {
    const kept = this.runs.get(runId);
    if (!kept) return undefined;
    if (storedLastSeq() !== kept.length) {
      this.forget(runId);
      return undefined;
    }
    // A fresh object per read, as from the store: callers may keep or change what they get.
    return kept.map(ownEntry);
  }

  private forget(runId: string): void {
    const kept = this.runs.get(runId);
    if (!kept) return;
    for (const row of kept) this.keptChars -= row.data.length;
    this.runs.delete(runId);
  }
}

/**
 * A row this process wrote, as an entry: the same fields `toEntry` gives, without its schema
 * check — the data came from typed entries of this process and was serialized here.
 */
function ownEntry(row: EntryRow): LedgerEntry {
  return { ...entryHead(row), kind: row.kind, data: JSON.parse(row.data) } as LedgerEntry;
}
