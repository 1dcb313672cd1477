import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { TallyError } from '../../core/errors.js';
import { removeIfPresent, writeTempFile } from '../../core/io/atomic-write.js';
import { sleepSync } from '../../core/ledger/busy-retry.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import type { PostgresLedger } from '../../core/ledger/postgres-ledger.js';

const Holder = z.object({ pid: z.number().int(), host: z.string(), startedAt: z.string() });
type Holder = z.infer<typeof Holder>;

/**
 * Where the lock of one run's cleanup lives: beside a file ledger (so every process that
 * cleans from that ledger sees it), else (a database URL) in the temp folder.
 */
export function cleanupLockPath(ledgerPath: string, runId: string): string {
  const folder = ledgerPath.includes('://') ? join(tmpdir(), 'tally-cleanup-locks') : dirname(ledgerPath);
  return join(folder, `cleanup-${encodeURIComponent(runId)}.lock`);
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = Holder.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A holder on this machine whose process is gone left its lock behind (killed, crashed). */
function abandoned(holder: Holder | undefined): boolean {
  if (!holder || holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Creates the lock with its holder already in it, or returns false when it exists: the holder
 * is written to a private file first and hard-linked into place (link fails when the name is
 * taken), so a competing process never reads a lock without its holder. Where the file system
 * has no hard links, an exclusive create and a write (a reader may then briefly see it empty).
 */
function create(path: string, mine: Holder): boolean {
  const text = JSON.stringify(mine);
  // Core's temporary file (O_EXCL, a reapable name with the pid); a lock needs no fsync.
  const own = writeTempFile(path, text, 0o600, { durable: false });
  try {
    linkSync(own, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  } finally {
    removeIfPresent(own);
  }
  try {
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

const sameHolder = (a: Holder, b: Holder) =>
  a.pid === b.pid && a.host === b.host && a.startedAt === b.startedAt;

/**
 * Removes the lock if it still holds `abandonedHolder`; false when another process is taking
 * it over right now. Only the holder of the takeover mark (`LOCK.takeover`, created like the
 * lock) removes a lock, and only while it still names the dead holder: no creator can replace
 * that lock meanwhile (the name is taken), so the check and the removal cannot be split by a
 * new holder, and a live lock is never removed.
 */
function takeOver(path: string, abandonedHolder: Holder, mine: Holder): boolean {
  const mark = `${path}.takeover`;
  if (!create(mark, mine)) return false;
  try {
    const current = readHolder(path);
    if (current && sameHolder(current, abandonedHolder)) rmSync(path, { force: true });
  } finally {
    rmSync(mark, { force: true });
  }
  return true;
}

/** While another process takes an abandoned lock over, look again this often, this many times. */
const TAKEOVER_WAIT_MS = 10;
const TAKEOVER_TRIES = 100;

/**
 * Takes the lock of one run's cleanup, or throws CLEANUP_RUNNING naming who holds it: two
 * cleanups of one run at once would each read, delete and count the same resources, and
 * both report the whole run cleaned. Exactly one process creates the lock; a lock whose
 * process is gone is taken over. Returns the release.
 */
export function holdCleanupLock(ledgerPath: string, runId: string): () => void {
  const path = cleanupLockPath(ledgerPath, runId);
  mkdirSync(dirname(path), { recursive: true });
  const mine: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; !create(path, mine); attempt += 1) {
    const holder = readHolder(path);
    if (attempt < TAKEOVER_TRIES && holder && abandoned(holder)) {
      if (!takeOver(path, holder, mine)) sleepSync(TAKEOVER_WAIT_MS);
      continue;
    }
    const who = holder ? ` (process ${holder.pid} on ${holder.host}, since ${holder.startedAt})` : '';
    throw new TallyError(
      'CLEANUP_RUNNING',
      `Another cleanup of ${runId} is running${who}. Wait for it to end, then run \`tally fish cleanup ${runId}\` again to see what is left. If that process is gone, delete ${path}.`,
      { runId, lock: path, ...(holder ? { holder } : {}) },
    );
  }
  return () => {
    // Only our own lock: one taken over after ours was deemed abandoned is not ours to remove.
    if (readHolder(path)?.pid === mine.pid) unlinkSync(path);
  };
}

/**
 * The lock of one run's cleanup where the ledger is: a file beside a SQLite ledger, or in a
 * PostgreSQL ledger an advisory lock in the database itself, keyed by run id, so two machines
 * cleaning one run of a team ledger see each other (a temp-folder file is per machine).
 */
export async function holdRunCleanupLock(ledger: Ledger, runId: string): Promise<() => Promise<void>> {
  if (ledger.backend !== 'postgres') {
    const release = holdCleanupLock(ledger.path, runId);
    return async () => release();
  }
  const release = await (ledger as PostgresLedger).tryLock(`tally-cleanup:${runId}`);
  if (!release)
    throw new TallyError(
      'CLEANUP_RUNNING',
      `Another cleanup of ${runId} is running (it holds the run's lock in ${ledger.path}, from this machine or another). Wait for it to end, then run \`tally fish cleanup ${runId}\` again to see what is left. A cleanup that died released it with its connection.`,
      { runId, lock: ledger.path },
    );
  return release;
}
