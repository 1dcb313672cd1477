import { lstatSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { RecordsUsageError } from './records-error.js';

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

export function checkCatPaths(root: string, args: string[], allowed: Set<string>): string[] {
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
      `--cat refused${refused.length ? `: ${refused.join(', ')}` : ': no paths given'}. Nothing was printed. Pass paths exactly as a query prints them (e.g. references/decisions/use-postgres.md).`,
      { refused },
    );
  }
  return accepted;
}

/**
 * Reads every accepted record before anything is shown, re-checking each at read time:
 * the one read path of `--cat` and `records_cat` alike.
 */
export function readRecords(root: string, paths: string[]): { path: string; content: string }[] {
  return paths.map((path) => {
    const absolute = resolve(root, path);
    // Security: a record that turned into a symlink (or anything but a file) since it was indexed is not followed.
    const stats = lstatSync(absolute);
    if (!stats.isFile())
      throw new RecordsUsageError(
        'CAT_REFUSED',
        `--cat refused: ${path} is now ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}. Nothing was printed.`,
      );
    return { path, content: readFileSync(absolute, 'utf8') };
  });
}

/** Reads every accepted record first, so a failure prints nothing; then the dump. */
export function dumpRecords(root: string, paths: string[]): string {
  return readRecords(root, paths)
    .map(({ path, content }) => `==> ${path} <==\n${content}${content.endsWith('\n') ? '' : '\n'}`)
    .join('\n');
}
