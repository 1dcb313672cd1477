import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
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
 * Takes the lock of one run's cleanup, or throws CLEANUP_RUNNING naming who holds it: two
 * cleanups of one run at once would each read, delete and count the same resources, and
 * both report the whole run cleaned. Created with O_EXCL, so exactly one process wins; a lock
 * whose process is gone is taken over. Returns the release.
 */
export function holdCleanupLock(ledgerPath: string, runId: string): () => void {
  const path = cleanupLockPath(ledgerPath, runId);
  mkdirSync(dirname(path), { recursive: true });
  const mine: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      if (attempt === 0 && abandoned(holder)) {
        unlinkSync(path);
        continue;
      }
      const who = holder ? ` (process ${holder.pid} on ${holder.host}, since ${holder.startedAt})` : '';
      throw new TallyError(
        'CLEANUP_RUNNING',
        `Another cleanup of ${runId} is running${who}. Wait for it to end, then run \`tally fish cleanup ${runId}\` again to see what is left. If that process is gone, delete ${path}.`,
        { runId, lock: path, ...(holder ? { holder } : {}) },
      );
    }
  }
  return () => {
    // Only our own lock: one taken over after ours was deemed abandoned is not ours to remove.
    if (readHolder(path)?.pid === mine.pid) unlinkSync(path);
  };
}
