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

/**
 * The last log parsed, by its exact content, held by a long-lived caller (the MCP server's
 * records tools): it reads the file on every call, so an edit is always seen, but parses it
 * again only when it changed.
 */
export interface FailureLogMemo {
  last?: { content: string; parsed: ParsedLog };
}

function parseFailureLog(content: string, memo: FailureLogMemo): ParsedLog {
  if (memo.last?.content === content) return memo.last.parsed;
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
  memo.last = { content, parsed };
  return parsed;
}

/**
 * Best first: more terms and hits, then the path (or log line) in locale order, then by code
 * unit, so no two hits tie (locale order calls a composed and a decomposed `é` equal) and the
 * ranking does not depend on the order the candidates came in.
 */
function better(a: RecallHit, b: RecallHit): number {
  return (
    b.score - a.score ||
    a.where.localeCompare(b.where) ||
    (a.where < b.where ? -1 : a.where > b.where ? 1 : 0)
  );
}

/** The largest limit kept by insertion (TopHits); the tools cap theirs at 100. */
const TOP_HITS_MAX = 256;

/**
 * The best `limit` of the hits offered, kept sorted (better() order): a recall of 40,000
 * matching records sorts ~10 of them, not all (~10 ms of a 500,000-record recall). Most hits
 * are turned away by one score comparison, before any object is made.
 */
class TopHits {
  private readonly kept: RecallHit[] = [];
  /**
   * A large limit (or none): every hit is pushed and sorted once, at the end; inserting each
   * into a long sorted array would move it again and again.
   */
  private readonly everything: boolean;
  constructor(private readonly limit: number) {
    this.everything = !(limit <= TOP_HITS_MAX);
  }

  /** The hits kept, best first (with `everything`, more than `limit`: the caller cuts). */
  best(): RecallHit[] {
    return this.everything ? this.kept.sort(better) : this.kept;
  }

  /** Whether a hit of `score` could be kept: false when it cannot beat the worst kept. */
  wants(score: number): boolean {
    return this.everything || this.kept.length < this.limit || score >= (this.kept.at(-1) as RecallHit).score;
  }

  offer(hit: RecallHit): void {
    const kept = this.kept;
    if (this.everything) {
      kept.push(hit);
      return;
    }
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (better(kept[middle] as RecallHit, hit) <= 0) low = middle + 1;
      else high = middle;
    }
    if (low >= this.limit) return;
    kept.splice(low, 0, hit);
    if (kept.length > this.limit) kept.pop();
  }
}

/**
 * `--recall`: the failure log and failure-mode records, each ranked by terms matched, then hits,
 * the two sources interleaved; `matched` counts every hit, `hits` holds the best `limit`.
 * `candidates` (`source.recallCandidates(terms)`, in any order) may be narrowed already to the
 * records that can match; `memo` spares a caller that recalls again a re-parse of an unchanged log.
 */
export function recall(
  root: string,
  candidates: RecallCandidate[],
  terms: string,
  memo: FailureLogMemo = {},
  limit = Number.POSITIVE_INFINITY,
): { matched: number; hits: RecallHit[]; malformedLines: number; malformedLineNumbers: number[] } {
  const patterns = terms.split(/\s+/).filter(Boolean).map(termPattern);
  // The first `limit` of the interleaved list come from the best `limit` of each source.
  const records = new TopHits(limit);
  const lines = new TopHits(limit);
  let matched = 0;
  for (const candidate of candidates) {
    const value = score(candidate.text, patterns);
    if (value === 0) continue;
    matched += 1;
    if (records.wants(value))
      records.offer({ source: 'record', where: candidate.path, text: candidate.gloss, score: value });
  }
  const log = readFailureLog(join(root, 'mistakes.jsonl'));
  const parsed = log === undefined ? { lines: [], malformedLineNumbers: [] } : parseFailureLog(log, memo);
  for (const line of parsed.lines) {
    const value = score(line.text, patterns);
    if (value === 0) continue;
    matched += 1;
    if (lines.wants(value))
      lines.offer({ source: 'failure-log', where: line.where, text: line.summary, score: value });
  }
  const { malformedLineNumbers } = parsed;
  return {
    matched,
    hits: interleaveSources(records.best(), lines.best()).slice(0, limit),
    malformedLines: malformedLineNumbers.length,
    malformedLineNumbers: [...malformedLineNumbers],
  };
}

/**
 * Records and log lines alternate, each source best first, starting with the better top hit:
 * a capped list shows both (ranked purely by score, 80 record hits buried the first log line).
 */
function interleaveSources(records: RecallHit[], log: RecallHit[]): RecallHit[] {
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
