import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { LedgerError } from '../../core/errors.js';
import { isBusyError } from '../../core/ledger/busy-retry.js';
import { type Awaitable, type Ledger, openLedger } from '../../core/ledger/ledger.js';
import type { LedgerProblem } from '../../core/ledger/ledger-maintenance.js';
import { isPostgresUrl } from '../../core/ledger/postgres-url.js';
import { parseWhen } from '../../core/parse-when.js';
import { EXIT } from './exit-codes.js';
import { ledgerLabel, ledgerPathFor } from './open-ledger.js';

/**
 * `tally ledger check|vacuum|purge`: maintenance of one ledger — the one --ledger or
 * TALLY_LEDGER names, else this project's `.tally/ledger.db` (never every ledger `runs` reads:
 * a command that deletes acts on the file it was pointed at).
 */
function existingLedgerPath(command: Command): string | undefined {
  const path = ledgerPathFor(command);
  if (isPostgresUrl(path) || existsSync(path)) return path;
  process.stderr.write(
    `tally: no ledger at ${path}. Pass --ledger PATH (or set TALLY_LEDGER) to name the one to maintain.\n`,
  );
  return undefined;
}

// Maintenance waits for other writers longer than an append does: it runs once, by hand.
const MAINTENANCE_BUSY_MS = 10_000;

async function withWritableLedger<T>(path: string, work: (ledger: Ledger) => Awaitable<T>): Promise<T> {
  const ledger = await openLedger(path, { busyTimeoutMs: MAINTENANCE_BUSY_MS });
  try {
    return await work(ledger);
  } catch (error) {
    if (!isBusyError(error)) throw error;
    throw new LedgerError(
      'LEDGER_BUSY',
      `The ledger at ${path} stayed locked by another process for ${MAINTENANCE_BUSY_MS / 1000} s; nothing was changed. Run this again when no agent is writing to it.`,
      { path },
    );
  } finally {
    await ledger.close();
  }
}

function megabytes(path: string): string {
  if (isPostgresUrl(path)) return 'a database'; // the server's files are not ours to measure
  const bytes = existsSync(path) ? statSync(path).size : 0;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `tally ledger check`: SQLite's integrity check and the ledger's own invariants; exit 1 on any problem. */
export async function ledgerCheck(options: { json?: boolean }, command: Command): Promise<number> {
  const path = existingLedgerPath(command);
  if (!path) return EXIT.unavailable;
  const ledger = await openLedger(path, { readonly: true });
  let problems: LedgerProblem[];
  try {
    problems = await ledger.check();
  } finally {
    await ledger.close();
  }
  const label = ledger.path;
  if (options.json)
    process.stdout.write(
      `${JSON.stringify({ ledger: label, ok: problems.length === 0, problems }, null, 2)}\n`,
    );
  else if (problems.length === 0)
    process.stdout.write(
      `${label}: ok (${ledger.backend === 'sqlite' ? 'SQLite integrity, ' : ''}run starts, entry order per run, ends, kinds${ledger.backend === 'sqlite' ? ', JSON' : ''}).\n`,
    );
  else
    process.stdout.write(
      `${label}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems
        .map((problem) => `  ${problem.check.padEnd(10)} ${problem.message}`)
        .join('\n')}\n`,
    );
  return problems.length === 0 ? EXIT.ok : EXIT.notMet;
}

/** `tally ledger purge --before DATE [--dry-run]`: retention, whole runs only. */
export async function ledgerPurge(
  options: { before: string; dryRun?: boolean; json?: boolean },
  command: Command,
): Promise<number> {
  // A duration back from now (90d, 12h) or a date, like `stats --since`.
  const before = parseWhen(options.before);
  if (!before) {
    process.stderr.write(
      `tally: --before "${options.before}" is neither a duration (90d, 12h, 30m) nor a date (2026-11-01).\n`,
    );
    return EXIT.usage;
  }
  const path = existingLedgerPath(command);
  if (!path) return EXIT.unavailable;
  const dryRun = Boolean(options.dryRun);
  const result = await withWritableLedger(path, (ledger) => ledger.purge(before, { dryRun }));
  const label = ledgerLabel(path);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ledger: label, before, dryRun, ...result }, null, 2)}\n`);
    return EXIT.ok;
  }
  const what = `${result.runs} run${result.runs === 1 ? '' : 's'} (${result.entries} entr${result.entries === 1 ? 'y' : 'ies'}) wholly before ${before}`;
  process.stdout.write(
    dryRun
      ? `Would purge ${what} from ${label}. Nothing was changed.\n`
      : result.runs === 0
        ? `Nothing to purge: no run of ${label} lies wholly before ${before}.\n`
        : `Purged ${what} from ${label}. Runs with any entry on or after that time are kept whole. Run \`tally ledger vacuum\` to give the space back.\n`,
  );
  return EXIT.ok;
}

/** `tally ledger vacuum`: rewrites the file without free pages (after a purge). */
export async function ledgerVacuum(options: { json?: boolean }, command: Command): Promise<number> {
  const path = existingLedgerPath(command);
  if (!path) return EXIT.unavailable;
  const before = megabytes(path);
  await withWritableLedger(path, (ledger) => ledger.vacuum());
  const after = megabytes(path);
  const label = ledgerLabel(path);
  process.stdout.write(
    options.json
      ? `${JSON.stringify({ ledger: label, before, after }, null, 2)}\n`
      : `Vacuumed ${label}: ${before} → ${after}.\n`,
  );
  return EXIT.ok;
}
