import { closeSync, lstatSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import picomatch from 'picomatch';
import { type FileKind, fileKind } from './file-kind.js';
import { NotARegularFileError } from './not-a-regular-file-error.js';
import { openRegularFileSync } from './open-regular-file.js';
import { isBinary } from './tools/workspace-context.js';
import { walkFiles } from './walk-files.js';

/** A search holds one file at a time in memory: bound it. */
export const MAX_SEARCH_FILE_BYTES = 32 * 1024 * 1024;
/** Skipped files named in the result; the rest are counted. */
const MAX_SKIPPED_LISTED = 20;

export interface SearchRequest {
  /** The real directory to search (already checked to be inside the project). */
  base: string;
  /** `base` relative to the project root; `.` for the root. */
  baseRelative: string;
  pattern: string;
  literal: boolean;
  caseInsensitive: boolean;
  glob?: string;
  maxResults: number;
  /** Absolute paths never searched (the project root's protected paths: the ledger). */
  exclude?: string[];
}

export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

export interface SearchResult {
  matches: SearchMatch[];
  count: number;
  filesSearched: number;
  /** Files not searched and why (a FIFO, a device, too large), at most MAX_SKIPPED_LISTED. */
  skipped: { path: string; reason: string }[];
  skippedCount: number;
  /** Threads that searched (1, or 2 with the worker's helper); not shown to the agent. */
  threads: number;
}

export function compilePattern(pattern: string, literal: boolean, caseInsensitive: boolean): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : pattern;
  return new RegExp(source, caseInsensitive ? 'i' : '');
}

function specialReason(kind: FileKind): string {
  return `a ${kind.replace('-', ' ')}, not a regular file`;
}

/** The kind of a special file seen by the walk, or undefined when it is gone. */
function specialKind(absolute: string): FileKind | undefined {
  try {
    return fileKind(lstatSync(absolute));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** One search reads one file at a time: files up to this size are read into the same buffer. */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

/** The whole of a regular file (in `readBuffer` when it fits: valid until the next read) no larger than the limit, or why it was not read. */
function readSearchable(absolute: string, relative: string): Buffer | { reason: string } | undefined {
  let opened: ReturnType<typeof openRegularFileSync>;
  try {
    // Security: never opens a FIFO or a device, even one swapped in after the walk.
    opened = openRegularFileSync(absolute, relative);
  } catch (error) {
    if (error instanceof NotARegularFileError) return { reason: specialReason(error.kind) };
    const code = (error as { code?: string }).code;
    if (code === 'FILE_CHANGED') return { reason: 'replaced by a symlink while being opened' };
    // Gone since the walk, or unreadable: nothing to search, as before the change.
    if (code === 'ENOENT' || code === 'EACCES') return undefined;
    throw error;
  }
  try {
    if (opened.stats.size > MAX_SEARCH_FILE_BYTES)
      return {
        reason: `larger than ${MAX_SEARCH_FILE_BYTES / 1024 / 1024} MiB (read it in ranges with fs_read)`,
      };
    // Most source files fit the reused buffer: no allocation (and no garbage) per file.
    const data =
      opened.stats.size <= readBuffer.length
        ? readBuffer.subarray(0, opened.stats.size)
        : Buffer.allocUnsafe(opened.stats.size);
    let filled = 0;
    while (filled < data.length) {
      const read = readSync(opened.fd, data, filled, data.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return data.subarray(0, filled);
  } finally {
    closeSync(opened.fd);
  }
}

/** A file the search will look at: `order` is its place in the walk, which decides the cap. */
export interface SearchCandidate {
  absolute: string;
  /** Relative to the project root, as results show it. */
  path: string;
  special: boolean;
  order: number;
}

/**
 * What one searcher found in its share of the candidates: the first `maxResults` matches and
 * MAX_SKIPPED_LISTED skips in walk order (with their `order`), and the full counts. Shares are
 * merged by mergeSearchParts into what one searcher over all candidates would have returned.
 */
export interface SearchPart {
  matches: (SearchMatch & { order: number })[];
  count: number;
  filesSearched: number;
  skipped: { path: string; reason: string; order: number }[];
  skippedCount: number;
}

/** The walk (honouring .gitignore), filtered by the glob: regular files and special files, in walk order. */
export function searchCandidates(request: SearchRequest): SearchCandidate[] {
  const matchesGlob = request.glob
    ? picomatch(request.glob, { dot: true, basename: !request.glob.includes('/') })
    : undefined;
  // A file named as the search path is searched itself, as `grep PATTERN FILE` would (walking
  // it failed with ENOTDIR); the glob still filters it, by its name.
  const base = statSync(request.base);
  if (!base.isDirectory()) {
    const name = basename(request.baseRelative);
    if (matchesGlob && !matchesGlob(name)) return [];
    return [{ absolute: request.base, path: request.baseRelative, special: !base.isFile(), order: 0 }];
  }
  const prefix = request.baseRelative === '.' ? '' : `${request.baseRelative}/`;
  const candidates: SearchCandidate[] = [];
  for (const entry of walkFiles(request.base, {
    gitignore: true,
    ...(request.exclude ? { exclude: request.exclude } : {}),
  }).entries) {
    if (entry.type !== 'file' && entry.type !== 'other') continue;
    if (matchesGlob && !matchesGlob(entry.relative)) continue;
    candidates.push({
      absolute: entry.absolute,
      path: prefix + entry.relative,
      special: entry.type === 'other',
      order: candidates.length,
    });
  }
  return candidates;
}

/** Searches `candidates` in order: read each regular file, match line by line. */
export function searchPart(request: SearchRequest, candidates: readonly SearchCandidate[]): SearchPart {
  const regex = compilePattern(request.pattern, request.literal, request.caseInsensitive);
  // Whole-file prefilter: multiline, so `^` and `$` match at each line as they do per line.
  const anyLine = new RegExp(regex.source, `${regex.flags}m`);
  // A plain needle can be found in the raw bytes before any decoding.
  const needle =
    !request.caseInsensitive && (request.literal || !/[.*+?^${}()|[\]\\]/.test(request.pattern))
      ? Buffer.from(request.pattern)
      : undefined;
  const part: SearchPart = { matches: [], count: 0, filesSearched: 0, skipped: [], skippedCount: 0 };
  const skip = (file: SearchCandidate, reason: string) => {
    part.skippedCount += 1;
    if (part.skipped.length < MAX_SKIPPED_LISTED)
      part.skipped.push({ path: file.path, reason, order: file.order });
  };
  for (const file of candidates) {
    const { path } = file;
    if (file.special) {
      const kind = specialKind(file.absolute);
      if (kind) skip(file, specialReason(kind));
      continue;
    }
    part.filesSearched += 1;
    const data = readSearchable(file.absolute, path);
    if (data === undefined) continue;
    if (!Buffer.isBuffer(data)) {
      skip(file, data.reason);
      continue;
    }
    if ((needle && data.indexOf(needle) === -1) || isBinary(data)) continue;
    const text = data.toString('utf8');
    if (!anyLine.test(text)) continue;
    text.split('\n').forEach((line, index) => {
      if (!regex.test(line)) return;
      part.count += 1;
      if (part.matches.length < request.maxResults)
        part.matches.push({
          path,
          line: index + 1,
          text: line.replace(/\r$/, '').slice(0, 500),
          order: file.order,
        });
    });
  }
  return part;
}

/**
 * The shares of one search as one result: the first `maxResults` matches in walk order (as a
 * single searcher keeps them), then sorted by path and line; the first skips in walk order.
 */
export function mergeSearchParts(parts: readonly SearchPart[], maxResults: number): SearchResult {
  const inWalkOrder = <T extends { order: number; line?: number }>(lists: T[][]) =>
    lists.flat().sort((a, b) => a.order - b.order || (a.line ?? 0) - (b.line ?? 0));
  const matches = inWalkOrder(parts.map((part) => part.matches))
    .slice(0, maxResults)
    .map(({ path, line, text }) => ({ path, line, text }));
  matches.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  const sum = (field: 'count' | 'filesSearched' | 'skippedCount') =>
    parts.reduce((total, part) => total + part[field], 0);
  return {
    matches,
    count: sum('count'),
    filesSearched: sum('filesSearched'),
    skipped: inWalkOrder(parts.map((part) => part.skipped))
      .slice(0, MAX_SKIPPED_LISTED)
      .map(({ path, reason }) => ({ path, reason })),
    skippedCount: sum('skippedCount'),
    threads: parts.length,
  };
}

/**
 * The whole search in one thread. Synchronous and unbounded in time for a hostile pattern, so
 * it runs in a worker thread under a deadline (see searchRunner), never on the server's main thread.
 */
export function searchFiles(request: SearchRequest): SearchResult {
  return mergeSearchParts([searchPart(request, searchCandidates(request))], request.maxResults);
}
