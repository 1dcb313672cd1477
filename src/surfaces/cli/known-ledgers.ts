import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import type { Command } from 'commander';
import { RunNotFoundError, TallyError } from '../../core/errors.js';
import type { RunListing, RunRecord } from '../../core/ledger/entry.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { isPostgresUrl, redactPostgresUrl } from '../../core/ledger/postgres-url.js';
import { registeredLedgers } from './ledger-registry.js';
import { ledgerLabel, ledgerNamed, ledgerPathFor, openExistingLedgerAt } from './open-ledger.js';

/**
 * The ledgers a read command looks in: the one --ledger or TALLY_LEDGER names, else this
 * project's default and every ledger in the user's list (records roots, served roots…), existing ones only.
 */
export function knownLedgerPaths(command: Command): string[] {
  const own = ledgerPathFor(command);
  if (ledgerNamed(command)) return [own];
  return [...new Set([own, ...registeredLedgers()])].filter(
    (path) => isPostgresUrl(path) || existsSync(path),
  );
}

/** The project a ledger belongs to: the folder holding its `.tally/`, else its own folder; `~` for home. */
export function projectOf(ledgerPath: string): string {
  if (isPostgresUrl(ledgerPath)) return redactPostgresUrl(ledgerPath); // a team's database: no project folder
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
export async function eachLedger<T>(paths: string[], read: (ledger: Ledger) => Promise<T> | T): Promise<T[]> {
  const out: T[] = [];
  for (const path of paths) {
    let ledger: Ledger | undefined;
    try {
      ledger = await openExistingLedgerAt(path);
      if (ledger) out.push(await read(ledger));
    } catch (error) {
      if (!(error instanceof Error) || !('code' in error) || paths.length === 1) throw error;
      process.stderr.write(`tally: skipped ${ledgerLabel(path)}: ${error.message}\n`);
    } finally {
      await ledger?.close();
    }
  }
  return out;
}

/** Runs across ledgers, newest first (run ids sort by time), at most `limit`. */
export async function listRunsAcross(
  paths: string[],
  options: { limit: number; agent?: string },
): Promise<ListedRun[]> {
  const lists = await eachLedger(paths, async (ledger) =>
    (await ledger.listRuns(options)).map((run) => ({
      ...run,
      ledger: ledger.path,
      project: projectOf(ledger.path),
    })),
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
export async function ledgerPathHolding(command: Command, runId: string): Promise<string | undefined> {
  for (const path of knownLedgerPaths(command)) {
    const ledger = await openExistingLedgerAt(path);
    if (!ledger) continue;
    try {
      if (await ledger.hasRun(runId)) return path;
    } finally {
      await ledger.close();
    }
  }
  return undefined;
}

/**
 * The run with this id in the first known ledger that has it: the one lookup of `runs show`
 * and `report`. RUN_NOT_FOUND names the one ledger --ledger gave, else every ledger searched.
 */
export async function findRun(command: Command, runId: string): Promise<RunRecord> {
  return withRunLedger(command, runId, (ledger) => ledger.getRun(runId));
}

/** `read` with the known ledger that holds the run (then closed), or RUN_NOT_FOUND as `findRun` says it. */
export async function withRunLedger<T>(
  command: Command,
  runId: string,
  read: (ledger: Ledger) => Promise<T> | T,
): Promise<T> {
  const holding = await ledgerPathHolding(command, runId);
  const ledger = holding === undefined ? undefined : await openExistingLedgerAt(holding);
  if (ledger)
    try {
      return await read(ledger);
    } finally {
      await ledger.close();
    }
  const paths = knownLedgerPaths(command);
  const own = ledgerPathFor(command);
  if (ledgerNamed(command) || paths.length === 0) throw new RunNotFoundError(runId, ledgerLabel(own));
  const labels = paths.map(ledgerLabel);
  const named =
    labels.length > 3 ? `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more` : labels.join(', ');
  throw new TallyError(
    'RUN_NOT_FOUND',
    `No run "${runId}" in any of your ${paths.length} ledger${paths.length === 1 ? '' : 's'} (${named}). List runs with \`tally runs\`.`,
    { runId, ledgerPath: ledgerLabel(own), searched: labels },
  );
}
