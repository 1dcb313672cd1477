import { lstatSync, readlinkSync, type Stats, statSync } from 'node:fs';
import { LedgerError } from '../errors.js';
import { isPostgresUrl } from './postgres-url.js';

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function kindOf(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe), which would block every read';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * What is wrong with a SQLite ledger path, in words, or undefined when it can be used: a
 * regular file, or nothing yet (a writer creates it; a reader finds no runs). A symlink loop, a
 * dangling symlink, a directory, a FIFO (which blocks a read forever), a socket or a device is
 * no ledger: SQLite answered them with "unable to open database file", read-only commands saw
 * "no runs", and a FIFO hung them.
 */
export function ledgerPathProblem(path: string): string | undefined {
  if (isPostgresUrl(path)) return undefined;
  let link: Stats;
  try {
    link = lstatSync(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return undefined; // nothing there yet
    if (code === 'ENOTDIR') return 'a part of it before the file name is a file, not a directory';
    return `it cannot be examined (${code ?? String(error)})`;
  }
  if (!link.isSymbolicLink()) return kindOf(link) && `it is ${kindOf(link)}`;
  let target: Stats;
  try {
    target = statSync(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ELOOP') return 'it is a symbolic link that loops (it leads back to itself)';
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      let to = '';
      try {
        to = ` to ${readlinkSync(path)}`;
      } catch {
        // unreadable link text: named without it
      }
      return `it is a dangling symbolic link${to}, which does not exist`;
    }
    return `it is a symbolic link that cannot be followed (${code ?? String(error)})`;
  }
  const kind = kindOf(target);
  return kind && `it is a symbolic link to ${kind}`;
}

/** Throws LEDGER_UNAVAILABLE (exit 3) with what is wrong and what to do when `path` cannot be a ledger. */
export function checkLedgerPath(path: string): void {
  const problem = ledgerPathProblem(path);
  if (!problem) return;
  throw new LedgerError(
    'LEDGER_UNAVAILABLE',
    `The ledger path ${path} cannot be used: ${problem}. Pass --ledger (or set TALLY_LEDGER) to a ledger file, such as .tally/ledger.db, or to a path where a new one can be made.`,
    { path },
  );
}
