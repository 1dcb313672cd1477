import { existsSync, lstatSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AuthSample, Capture, CaptureSet, SkippedCapture } from './capture.js';
import { CapturesNotFoundError } from './capture-error.js';
import { apiOriginOf, filterCaptures } from './filter-captures.js';
import { parseExplorbotDir } from './parse-explorbot.js';
import { parseHar } from './parse-har.js';
import { asInputFileError, readRegularFile } from './read-regular-file.js';

/** HARs with bodies run to tens of MB; past this, JSON.parse alone would take seconds and GBs. */
export const HAR_SIZE_LIMIT = 200 * 1024 * 1024;

/**
 * HARs parsed in this process, by file identity (device, inode, size, change times): a library
 * that prepares data again and again (an MCP server, a test suite) parses a HAR once. A file
 * that changed in any way has another identity and is parsed again. The parsed captures are
 * only ever read. At most a few are kept: a HAR with bodies can be tens of MB.
 */
const parsedHars = new Map<string, ReturnType<typeof parseHar>>();
const PARSED_HARS_KEPT = 4;

function parseHarFile(path: string): ReturnType<typeof parseHar> {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  const key = stats?.isFile()
    ? `${path}\0${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`
    : undefined;
  const cached = key === undefined ? undefined : parsedHars.get(key);
  if (cached) return cached;
  // Read through the regular-file check (no links, FIFOs or devices), as always.
  const parsed = parseHar(readRegularFile(path, 'HAR file', HAR_SIZE_LIMIT), path);
  if (key !== undefined) {
    parsedHars.set(key, parsed);
    if (parsedHars.size > PARSED_HARS_KEPT) parsedHars.delete(parsedHars.keys().next().value as string);
  }
  return parsed;
}

/** Loads HAR files and explorbot directories; a malformed HAR throws CaptureFormatError. */
export function loadCaptures(
  paths: string[],
  options: { apiOrigin?: string } = {},
): CaptureSet & { apiOrigin?: string } {
  const all: Capture[] = [];
  const auth: AuthSample[] = [];
  const skipped: SkippedCapture[] = [];
  const sources: string[] = [];
  for (const raw of paths) {
    const path = resolve(raw);
    if (!existsSync(path)) throw new CapturesNotFoundError(raw);
    sources.push(path);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      throw asInputFileError(raw, 'capture path', error);
    }
    if (isDirectory) {
      const parsed = parseExplorbotDir(path);
      all.push(...parsed.captures);
      auth.push(...parsed.auth);
      skipped.push(...parsed.skipped);
    } else {
      const parsed = parseHarFile(path);
      all.push(...parsed.captures);
      auth.push(...parsed.auth);
      skipped.push(...parsed.skipped);
    }
  }
  const apiOrigin = options.apiOrigin ?? apiOriginOf(all);
  const { kept, dropped } = filterCaptures(all, apiOrigin);
  return {
    captures: kept,
    auth,
    skipped: [...skipped, ...dropped],
    sources,
    ...(apiOrigin ? { apiOrigin } : {}),
  };
}

/**
 * Auth headers for requests, from THIS capture session only (the source with the newest
 * timestamp), newest first; samples without a timestamp are stale and never used.
 */
export function currentAuthHeaders(auth: AuthSample[]): Record<string, string> {
  const dated = auth.filter((sample) => sample.timestamp);
  if (dated.length === 0) return {};
  const newest = dated.reduce((a, b) => ((a.timestamp as string) >= (b.timestamp as string) ? a : b));
  const out: Record<string, string> = {};
  const ordered = dated
    .filter((sample) => sample.session === newest.session)
    .sort((a, b) => ((b.timestamp as string) < (a.timestamp as string) ? -1 : 1));
  for (const sample of ordered) {
    for (const [name, value] of Object.entries(sample.headers)) out[name] ??= value;
  }
  return out;
}
