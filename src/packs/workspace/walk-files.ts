import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isTallyTempName } from '../../core/io/temp-files.js';

export interface WalkEntry {
  absolute: string;
  /** Relative to the walk's base, forward slashes. */
  relative: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  depth: number;
}

export interface WalkOptions {
  /** Honour .gitignore files (root and nested). */
  gitignore?: boolean;
  maxDepth?: number;
  /** Stop after this many entries. */
  limit?: number;
  /** Absolute paths never listed or entered (the project root's protected paths). */
  exclude?: readonly string[];
}

function gitignoreAt(directory: string): string | undefined {
  try {
    return readFileSync(join(directory, '.gitignore'), 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'EISDIR')
      return undefined;
    throw error;
  }
}

/**
 * Walks a directory breadth-first without following symlinks (a link is reported, never
 * entered), skipping `.git` and Tally's temporary files, honouring `.gitignore` when asked. Synchronous on purpose:
 * thousands of tiny readdirs through the thread pool cost several times more than the walk.
 */
export function walkFiles(
  base: string,
  options: WalkOptions = {},
): { entries: WalkEntry[]; truncated: boolean } {
  const entries: WalkEntry[] = [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const queue: { directory: string; depth: number; rules: { base: string; matcher: Ignore }[] }[] = [
    { directory: base, depth: 0, rules: [] },
  ];
  while (queue.length > 0) {
    const { directory, depth, rules } = queue.shift() as (typeof queue)[number];
    let ownRules = rules;
    if (options.gitignore) {
      const text = gitignoreAt(directory);
      if (text) ownRules = [...rules, { base: directory, matcher: ignore().add(text) }];
    }
    const dirents = readdirSync(directory, { withFileTypes: true });
    dirents.sort((a, b) => a.name.localeCompare(b.name));
    for (const dirent of dirents) {
      // An in-flight or orphaned atomic-write temporary file is Tally's, never the project's.
      if (dirent.name === '.git' || isTallyTempName(dirent.name)) continue;
      const absolute = join(directory, dirent.name);
      if (options.exclude?.includes(absolute)) continue;
      const isDirectory = dirent.isDirectory();
      const ignored = ownRules.some((rule) => {
        const rel = relative(rule.base, absolute).split(sep).join('/');
        return rule.matcher.ignores(isDirectory ? `${rel}/` : rel);
      });
      if (ignored) continue;
      const type = dirent.isSymbolicLink()
        ? 'symlink'
        : isDirectory
          ? 'directory'
          : dirent.isFile()
            ? 'file'
            : 'other';
      entries.push({
        absolute,
        relative: relative(base, absolute).split(sep).join('/'),
        type,
        depth: depth + 1,
      });
      if (entries.length >= limit) return { entries, truncated: true };
      if (isDirectory && (options.maxDepth === undefined || depth + 1 < options.maxDepth)) {
        queue.push({ directory: absolute, depth: depth + 1, rules: ownRules });
      }
    }
  }
  return { entries, truncated: false };
}
