import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** What `join(directory, name)` puts before a plain name: the directory, normalized, and a separator. */
function joinPrefix(directory: string): string {
  return join(directory, '_').slice(0, -1);
}

/**
 * Walks a directory breadth-first without following symlinks (a link is reported, never
 * entered), skipping `.git` and Tally's temporary files, honouring `.gitignore` when asked. Synchronous on purpose:
 * thousands of tiny readdirs through the thread pool cost several times more than the walk.
 * Paths are built by concatenation (a readdir name is one plain segment), not path.join and
 * path.relative per entry: on fs_grep's 20,000-file tree those were a third of the walk.
 */
export function walkFiles(
  base: string,
  options: WalkOptions = {},
): { entries: WalkEntry[]; truncated: boolean } {
  const entries: WalkEntry[] = [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const exclude = options.exclude && options.exclude.length > 0 ? new Set(options.exclude) : undefined;
  /** `relative`: the directory relative to `base`, '' for base; a rule's `prefix` is its directory's, with a slash. */
  const queue: {
    directory: string;
    relative: string;
    depth: number;
    rules: { prefix: string; matcher: Ignore }[];
  }[] = [{ directory: base, relative: '', depth: 0, rules: [] }];
  for (let next = 0; next < queue.length; next++) {
    const { directory, relative: directoryRelative, depth, rules } = queue[next] as (typeof queue)[number];
    // Read before the walk moves on: entries already taken are not held twice.
    queue[next] = undefined as unknown as (typeof queue)[number];
    const dirents = readdirSync(directory, { withFileTypes: true });
    let ownRules = rules;
    // Only a directory that lists a .gitignore can have one: no failed open per directory.
    if (options.gitignore && dirents.some((dirent) => dirent.name === '.gitignore')) {
      const text = gitignoreAt(directory);
      if (text)
        ownRules = [
          ...rules,
          { prefix: directoryRelative === '' ? '' : `${directoryRelative}/`, matcher: ignore().add(text) },
        ];
    }
    dirents.sort((a, b) => a.name.localeCompare(b.name));
    const absolutePrefix = joinPrefix(directory);
    const relativePrefix = directoryRelative === '' ? '' : `${directoryRelative}/`;
    for (const dirent of dirents) {
      // An in-flight or orphaned atomic-write temporary file is Tally's, never the project's.
      if (dirent.name === '.git' || isTallyTempName(dirent.name)) continue;
      const absolute = absolutePrefix + dirent.name;
      if (exclude?.has(absolute)) continue;
      const isDirectory = dirent.isDirectory();
      const relative = relativePrefix + dirent.name;
      const ignored = ownRules.some((rule) => {
        const rel = relative.slice(rule.prefix.length);
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
      entries.push({ absolute, relative, type, depth: depth + 1 });
      if (entries.length >= limit) return { entries, truncated: true };
      if (isDirectory && (options.maxDepth === undefined || depth + 1 < options.maxDepth)) {
        queue.push({ directory: absolute, relative, depth: depth + 1, rules: ownRules });
      }
    }
  }
  return { entries, truncated: false };
}
