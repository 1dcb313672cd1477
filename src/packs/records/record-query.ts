import type { RecordFields } from './parse-record.js';

export interface RecordQuery {
  keyword?: string;
  kind?: string;
  id?: string;
  linksTo?: string;
  project?: string;
  limit?: number;
}

/** What a query returns: a record's fields (less the free-form extras), where it is, and its gloss. */
export interface RecordRow extends Omit<RecordFields, 'extra'> {
  path: string;
  store: string;
  gloss: string;
  errors: string[];
}

export interface SkippedRecord {
  path: string;
  why: string;
}

/** `--project` matches exactly or by the repo part of `owner/repo`. */
export function projectMatches(recordProject: string | undefined, wanted: string): boolean {
  if (!recordProject) return false;
  const repo = (value: string) => value.split('/').at(-1) as string;
  return recordProject === wanted || repo(recordProject) === wanted || recordProject === repo(wanted);
}

/** A searchable set of records: the on-disk index, or a plain scan when none can be kept. */
export const FAILURE_STORE = 'references/failure-modes';

export function isFailureMode(row: Pick<RecordRow, 'store' | 'kind'>): boolean {
  return row.store === FAILURE_STORE || row.kind === 'failure-mode';
}

/** What --recall scores for one failure-mode record: keywords, title and body as one text. */
export interface RecallCandidate {
  path: string;
  gloss: string;
  text: string;
}

/** The text --recall searches in a failure-mode record (the index stores exactly this). */
export function recallText(row: Pick<RecordRow, 'keywords' | 'title'>, body: string): string {
  return [row.keywords.join(' '), row.title ?? '', body].join('\n');
}

export interface RecordSource {
  query(query: RecordQuery): RecordRow[];
  /** Just path and gloss (the survey), cheaper than whole rows. */
  survey(query: RecordQuery): { path: string; gloss: string }[];
  /** Every path a query can return: the only paths --cat will dump. */
  paths(): Set<string>;
  /**
   * Those of `paths` a query can return, where the source can answer that without listing
   * every path (the index: one lookup each; a Set of every path costs ~1 s at 500,000).
   */
  pathsAmong?(paths: string[]): Set<string>;
  /**
   * What --recall scores: failure-mode records as one text each; with `terms`, a source may
   * leave out records that cannot match them.
   */
  recallCandidates(terms?: string): RecallCandidate[];
  rows(): RecordRow[];
  /** Records left out of every query because their frontmatter cannot be represented; lint reports them. */
  skipped?(): SkippedRecord[];
  close(): void;
}
