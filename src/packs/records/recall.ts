import { join } from 'node:path';
import { readRegularFile } from './read-regular-file.js';
import type { RecallCandidate } from './record-query.js';

/** The failure log's text; undefined when there is none, or it is a FIFO, device or link (never opened blocking). */
function readFailureLog(path: string): string | undefined {
  try {
    const read = readRegularFile(path);
    return 'content' in read ? read.content : undefined;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface RecallHit {
  source: 'record' | 'failure-log';
  /** A record path, or `mistakes.jsonl:LINE`. */
  where: string;
  text: string;
  score: number;
}

function termPattern(term: string): RegExp {
  // Whole words only; `a-b` matches the phrase ("a-b", "a b", "a_b").
  const words = term
    .split('-')
    .filter(Boolean)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('[-\\s_]+')}(?![\\p{L}\\p{N}])`, 'giu');
}

function score(text: string, patterns: RegExp[]): number {
  let distinct = 0;
  let occurrences = 0;
  for (const pattern of patterns) {
    const found = text.match(pattern)?.length ?? 0;
    if (found > 0) distinct += 1;
    occurrences += found;
  }
  return distinct === 0 ? 0 : distinct * 100 + occurrences;
}

interface ParsedLog {
  /** Each object line: where it is, the text recall searches, and the summary it shows. */
  lines: { where: string; text: string; summary: string }[];
  malformedLineNumbers: number[];
}

// The last log parsed, by its exact content: a long-lived process (the MCP server) reads the
// file on every call, so an edit is always seen, but parses it again only when it changed.
let lastLog: { content: string; parsed: ParsedLog } | undefined;

function parseFailureLog(content: string): ParsedLog {
  if (lastLog?.content === content) return lastLog.parsed;
  const parsed: ParsedLog = { lines: [], malformedLineNumbers: [] };
  content.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    let entry: Record<string, unknown>;
    try {
      const value: unknown = JSON.parse(line);
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SyntaxError('not an object');
      entry = value as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      parsed.malformedLineNumbers.push(index + 1);
      return;
    }
    const summary = `${entry.category ? `[${String(entry.category)}] ` : ''}${String(entry.description ?? entry.trigger ?? '')}${entry.correction ? ` → ${String(entry.correction)}` : ''}`;
    parsed.lines.push({
      where: `mistakes.jsonl:${index + 1}`,
      text: Object.values(entry)
        .filter((value) => typeof value === 'string')
        .join('\n'),
      summary: summary.replace(/\s+/g, ' ').trim(),
    });
  });
  lastLog = { content, parsed };
  return parsed;
}

/**
 * `--recall`: the failure log and failure-mode records, each ranked by terms matched, then hits,
 * the two sources interleaved. `candidates` (`source.recallCandidates(terms)`) may be narrowed
 * already to the records that can match.
 */
export function recall(
  root: string,
  candidates: RecallCandidate[],
  terms: string,
): { hits: RecallHit[]; malformedLines: number; malformedLineNumbers: number[] } {
  const patterns = terms.split(/\s+/).filter(Boolean).map(termPattern);
  const hits: RecallHit[] = [];
  for (const candidate of candidates) {
    const value = score(candidate.text, patterns);
    if (value > 0)
      hits.push({ source: 'record', where: candidate.path, text: candidate.gloss, score: value });
  }
  const log = readFailureLog(join(root, 'mistakes.jsonl'));
  const parsed = log === undefined ? { lines: [], malformedLineNumbers: [] } : parseFailureLog(log);
  for (const line of parsed.lines) {
    const value = score(line.text, patterns);
    if (value > 0) hits.push({ source: 'failure-log', where: line.where, text: line.summary, score: value });
  }
  const { malformedLineNumbers } = parsed;
  hits.sort((a, b) => b.score - a.score || a.where.localeCompare(b.where));
  return {
    hits: interleaveSources(hits),
    malformedLines: malformedLineNumbers.length,
    malformedLineNumbers: [...malformedLineNumbers],
  };
}

/**
 * Records and log lines alternate, each source best first, starting with the better top hit:
 * a capped list shows both (ranked purely by score, 80 record hits buried the first log line).
 */
function interleaveSources(sorted: RecallHit[]): RecallHit[] {
  const records = sorted.filter((hit) => hit.source === 'record');
  const log = sorted.filter((hit) => hit.source === 'failure-log');
  const merged: RecallHit[] = [];
  let takeRecord = (records[0]?.score ?? -1) >= (log[0]?.score ?? -1);
  let record = 0;
  let line = 0;
  while (record < records.length || line < log.length) {
    if ((takeRecord && record < records.length) || line >= log.length)
      merged.push(records[record++] as RecallHit);
    else merged.push(log[line++] as RecallHit);
    takeRecord = !takeRecord;
  }
  return merged;
}
