import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../../core/io/atomic-write.js';
import { secureStateDir } from '../../core/io/private-dir.js';
import { ledgerStateDir } from '../../core/ledger/resolve-ledger-path.js';

/**
 * A scout run for a client session leaves a marker beside its ledger once the run has ended.
 * The how-do-i gate reads the marker's mtime before anything else: with no marker since the
 * turn began it denies at the cost of one stat, instead of loading SQLite on every denied
 * write. The marker only says where to look — the gate still opens on the run in the ledger.
 */
export function scoutSessionMarker(ledgerPath: string, session: string): string {
  const key = createHash('sha256').update(session).digest('hex').slice(0, 32);
  return join(ledgerStateDir(ledgerPath), 'scout-sessions', key);
}

/** Marks a session's scout run as ended; false when the folder cannot be written (the gate then looks anyway). */
export function markScoutSession(ledgerPath: string, session: string): boolean {
  const marker = scoutSessionMarker(ledgerPath, session);
  try {
    // A private 0700 folder of this user beside the ledger (never a link), the marker written whole.
    if ('refused' in secureStateDir(dirname(marker), { create: true, mode: 0o700 })) return false;
    writeFileAtomicSync(marker, `${new Date().toISOString()}\n`, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

/**
 * When the session's marker was last written (ms), `undefined` when there is none, or `'unknown'`
 * when the marker cannot be read for another reason than its absence (the gate then opens the ledger).
 */
export function scoutSessionMarkedAt(ledgerPath: string, session: string): number | undefined | 'unknown' {
  try {
    return statSync(scoutSessionMarker(ledgerPath, session), { throwIfNoEntry: false })?.mtimeMs;
  } catch {
    return 'unknown';
  }
}
