import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { TallyError } from '../../core/errors.js';

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
  const own = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(own, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(own, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  } finally {
    rmSync(own, { force: true });
  }
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Removes an abandoned lock, unless another process replaced it meanwhile: the lock is first
 * renamed to a name of our own (only one of two processes taking over succeeds), and put back
 * when what was renamed is not the abandoned holder that was read.
 */
function takeOver(path: string, abandonedHolder: Holder): void {
  const aside = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readHolder(aside);
  if (moved && JSON.stringify(moved) !== JSON.stringify(abandonedHolder)) {
    try {
      linkSync(aside, path);
    } catch {
      // Someone holds the name again: their lock stands, and so the next attempt refuses.
    }
  }
  rmSync(aside, { force: true });
}

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
    if (attempt === 0 && holder && abandoned(holder)) {
      takeOver(path, holder);
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
