import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { readRegularFile } from './read-regular-file.js';
import { RecordsUsageError } from './records-error.js';

/** Who asked for the dump, named in refusals: the CLI flag or the MCP tool. */
export type CatSurface = '--cat' | 'records_cat';

/**
 * `--cat`: every argument (split on newlines, so a smuggled second path is checked too)
 * must be exactly a path a query can return. One bad path refuses the whole batch before
 * anything is read. Duplicates are dropped, the caller's order kept, no cap.
 */
/** A record path as queries print it: `./` removed, an absolute path under the root made relative. */
export function normalizeRecordPath(root: string, given: string): string {
  let path = given;
  if (isAbsolute(path)) {
    const rel = relative(root, path);
    path = rel.startsWith('..') || isAbsolute(rel) ? given : rel.split(sep).join('/');
  }
  while (path.startsWith('./')) path = path.slice(2);
  return path;
}

export function checkCatPaths(
  root: string,
  args: string[],
  allowed: Set<string>,
  surface: CatSurface = '--cat',
): string[] {
  const parts = args.flatMap((arg) => arg.split(/\r\n|\r|\n/));
  const refused: string[] = [];
  const accepted: string[] = [];
  for (const part of parts) {
    const path = normalizeRecordPath(root, part);
    const why = !part.trim()
      ? 'empty argument'
      : part.includes('\0')
        ? 'NUL byte'
        : part.startsWith('-')
          ? 'starts with a dash'
          : /[*?[\]{}]/.test(part)
            ? 'glob characters'
            : !allowed.has(path)
              ? 'not a record a query can return'
              : undefined;
    if (why) refused.push(`"${part.replace(/\0/g, '\\0')}" (${why})`);
    else if (!accepted.includes(path)) accepted.push(path);
  }
  if (refused.length > 0 || accepted.length === 0) {
    throw new RecordsUsageError(
      'CAT_REFUSED',
      `${surface} refused${refused.length ? `: ${refused.join(', ')}` : ': no paths given'}. Nothing was printed. Pass paths exactly as a query prints them (e.g. references/decisions/use-postgres.md).`,
      { refused },
    );
  }
  return accepted;
}

const refuse = (path: string, why: string, surface: CatSurface) =>
  new RecordsUsageError(
    'CAT_REFUSED',
    `${surface} refused: ${path} is now ${why}. Nothing was printed. Run ${surface === 'records_cat' ? 'records_query' : 'the query'} again.`,
    {
      path,
    },
  );

/**
 * Reads every accepted record before anything is shown, re-checking each at read time: the
 * one read path of `--cat`, `--full` and `records_cat` alike.
 */
export function readRecords(
  root: string,
  paths: string[],
  surface: CatSurface = '--cat',
): { path: string; content: string }[] {
  const realRoot = realpathSync(root);
  return paths.map((path) => {
    const absolute = resolve(root, path);
    // Security: the index may be older than the disk. A store folder swapped for a link since
    // it was listed would lead out of the root: the record's folder must still be inside it.
    let folder: string;
    try {
      folder = realpathSync(dirname(absolute));
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') throw refuse(path, 'missing', surface);
      throw error;
    }
    if (folder !== resolve(realRoot, dirname(path))) throw refuse(path, 'behind a symbolic link', surface);
    // Security: a record that turned into a symlink, FIFO or device since it was indexed is not
    // followed or opened blocking (O_NOFOLLOW | O_NONBLOCK, then fstat of what was opened).
    let read: ReturnType<typeof readRegularFile>;
    try {
      read = readRegularFile(absolute);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') throw refuse(path, 'missing', surface);
      throw error;
    }
    if ('notRegular' in read) throw refuse(path, read.notRegular, surface);
    return { path, content: read.content };
  });
}

/** `records_cat` and `--cat`: check every path against the queryable set, then read them all. */
export function catRecords(
  root: string,
  args: string[],
  allowed: Set<string>,
  surface: CatSurface = '--cat',
): { path: string; content: string }[] {
  return readRecords(root, checkCatPaths(root, args, allowed, surface), surface);
}

/** The `--cat` dump: `==> path <==` then each record verbatim. */
export function formatDump(records: { path: string; content: string }[]): string {
  return records
    .map(({ path, content }) => `==> ${path} <==\n${content}${content.endsWith('\n') ? '' : '\n'}`)
    .join('\n');
}

/** Reads every accepted record first, so a failure prints nothing; then the dump. */
export function dumpRecords(root: string, paths: string[]): string {
  return formatDump(readRecords(root, paths));
}
