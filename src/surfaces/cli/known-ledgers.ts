import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import type { Command } from 'commander';
import { RunNotFoundError, TallyError } from '../../core/errors.js';
import type { RunListing, RunRecord } from '../../core/ledger/entry.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { registeredLedgers } from './ledger-registry.js';
import { ledgerNamed, ledgerPathFor, openExistingLedgerAt } from './open-ledger.js';

/**
 * The ledgers a read command looks in: the one --ledger or TALLY_LEDGER names, else this
 * project's default and every ledger in the user's list (records roots, served roots…), existing ones only.
 */
export function knownLedgerPaths(command: Command): string[] {
  const own = ledgerPathFor(command);
  if (ledgerNamed(command)) return [own];
  return [...new Set([own, ...registeredLedgers()])].filter((path) => existsSync(path));
}

/** The project a ledger belongs to: the folder holding its `.tally/`, else its own folder; `~` for home. */
export function projectOf(ledgerPath: string): string {
  const folder = dirname(ledgerPath);
  const project = basename(folder) === '.tally' ? dirname(folder) : folder;
  const home = homedir();
  return project === home ? '~' : project.startsWith(`${home}/`) ? `~${project.slice(home.length)}` : project;
}

export interface ListedRun extends RunListing {
  ledger: string;
  project: string;
}

/** Opens each ledger read-only in turn; one that cannot be read is named on stderr and skipped. */
export function eachLedger<T>(paths: string[], read: (ledger: Ledger) => T): T[] {
  const out: T[] = [];
  for (const path of paths) {
    let ledger: Ledger | undefined;
    try {
      ledger = openExistingLedgerAt(path);
      if (ledger) out.push(read(ledger));
    } catch (error) {
      if (!(error instanceof Error) || !('code' in error) || paths.length === 1) throw error;
      process.stderr.write(`tally: skipped ${path}: ${error.message}\n`);
    } finally {
      ledger?.close();
    }
  }
  return out;
}

/** Runs across ledgers, newest first (run ids sort by time), at most `limit`. */
export function listRunsAcross(paths: string[], options: { limit: number; agent?: string }): ListedRun[] {
  const lists = eachLedger(paths, (ledger) =>
    ledger.listRuns(options).map((run) => ({ ...run, ledger: ledger.path, project: projectOf(ledger.path) })),
  );
  return lists
    .flat()
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, options.limit);
}

/**
 * The known ledger that holds this run (see `knownLedgerPaths`), or undefined: where a command
 * that acts on a run (`fish cleanup`) records what it does, next to the run it acts on.
 */
export function ledgerPathHolding(command: Command, runId: string): string | undefined {
  for (const path of knownLedgerPaths(command)) {
    const ledger = openExistingLedgerAt(path);
    if (!ledger) continue;
    try {
      if (ledger.hasRun(runId)) return path;
    } finally {
      ledger.close();
    }
  }
  return undefined;
}

/**
 * The run with this id in the first known ledger that has it: the one lookup of `runs show`
 * and `report`. RUN_NOT_FOUND names the one ledger --ledger gave, else every ledger searched.
 */
export function findRun(command: Command, runId: string): RunRecord {
  const holding = ledgerPathHolding(command, runId);
  const ledger = holding === undefined ? undefined : openExistingLedgerAt(holding);
  if (ledger)
    try {
      return ledger.getRun(runId);
    } finally {
      ledger.close();
    }
  const paths = knownLedgerPaths(command);
  const own = ledgerPathFor(command);
  if (ledgerNamed(command) || paths.length === 0) throw new RunNotFoundError(runId, own);
  const named =
    paths.length > 3 ? `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more` : paths.join(', ');
  throw new TallyError(
    'RUN_NOT_FOUND',
    `No run "${runId}" in any of your ${paths.length} ledger${paths.length === 1 ? '' : 's'} (${named}). List runs with \`tally runs\`.`,
    { runId, ledgerPath: own, searched: paths },
  );
}
