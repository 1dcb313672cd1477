import { tokenize } from '../../packs/records/bm25.js';
import { catRecords, dumpRecords, formatDump, normalizeRecordPath } from '../../packs/records/cat-records.js';
import { openRecordSource } from '../../packs/records/open-record-source.js';
import { type FailureLogMemo, recall } from '../../packs/records/recall.js';
import type { RecordQuery, RecordRow, RecordSource } from '../../packs/records/record-query.js';
import { RecordsUsageError } from '../../packs/records/records-error.js';
import { listStores, resolveRecordsRoot } from '../../packs/records/stores.js';
import { visibleOneLine } from '../visible-controls.js';
import { countNoun } from './count-noun.js';
import { EXIT } from './exit-codes.js';
import { writeStdout } from './write-stdout.js';

export interface RecordsFlags {
  root?: string;
  keyword?: string;
  kind?: string;
  id?: string;
  linksTo?: string;
  project?: string;
  limit?: string;
  full?: boolean;
  cat?: string[];
  recall?: string;
  listStores?: boolean;
  json?: boolean;
  /** `--index PATH` names the index file; `--no-index` scans instead. */
  index?: boolean | string;
}

const FULL_CAP = 10;
const RECALL_CAP = 10;

/** A record's first body line is the team's text, shown, never obeyed by the terminal. */
const survey = (rows: Pick<RecordRow, 'path' | 'gloss'>[]) =>
  rows.map((row) => `${row.path} — ${visibleOneLine(row.gloss)}`).join('\n');

function limitOf(flags: RecordsFlags): number | undefined {
  if (flags.limit === undefined) return undefined;
  const limit = Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new RecordsUsageError(
      'LIMIT_INVALID',
      `--limit must be a whole number of at least 1, got "${flags.limit}".`,
    );
  return limit;
}

const indexOptions = (flags: RecordsFlags) => ({
  noIndex: flags.index === false,
  ...(typeof flags.index === 'string' ? { indexPath: flags.index } : {}),
});

/**
 * Where a query's answer goes and where its records come from. The one-shot CLI writes to the
 * process's streams and opens (and checks) the index itself; the resident server
 * (records-serve-command.ts) captures both streams and answers from its watched index, so the
 * two paths run this one function and cannot print different things.
 */
export interface RecordsQueryIo {
  out(text: string): void;
  err(text: string): void;
  open: typeof openRecordSource;
  /**
   * The failure log as the last --recall parsed it, kept by a caller that answers many
   * queries (the resident server): the log is still read every time, so an edit is seen, but
   * parsed again only when its content changed (~10 ms of a 50,000-record recall's ~45).
   */
  failureLog?: FailureLogMemo;
}

const PROCESS_IO: RecordsQueryIo = {
  out: writeStdout,
  err: (text) => process.stderr.write(text),
  open: openRecordSource,
};

/** `tally records query`: one retrieval surface, flag-compatible with the shell tool it replaces. */
export default function recordsQueryCommand(flags: RecordsFlags): Promise<number> {
  return runRecordsQueryWith(flags, PROCESS_IO);
}

/** The query itself, answering through `io` (see RecordsQueryIo). */
export async function runRecordsQueryWith(flags: RecordsFlags, io: RecordsQueryIo): Promise<number> {
  const modes = [flags.cat !== undefined, flags.recall !== undefined, Boolean(flags.listStores)].filter(
    Boolean,
  ).length;
  const filters = [flags.keyword, flags.kind, flags.id, flags.linksTo, flags.project].some(
    (value) => value !== undefined,
  );
  if (modes > 1 || (modes === 1 && (filters || flags.full))) {
    throw new RecordsUsageError(
      'MODE_CONFLICT',
      '--cat, --recall and --list-stores are modes of their own: use one, without query filters.',
    );
  }
  if (flags.keyword !== undefined && tokenize(flags.keyword).length === 0)
    throw new RecordsUsageError(
      'KEYWORD_EMPTY',
      `--keyword ${JSON.stringify(flags.keyword.slice(0, 80))} has no word to search for (letters or digits). Pass terms, e.g. --keyword "schema migration".`,
    );
  const root = resolveRecordsRoot(flags.root);
  const stores = listStores(root);
  const out: string[] = [];
  const write = () => {
    if (out.length > 0) io.out(`${out.join('\n')}\n`);
  };

  if (flags.listStores) {
    const source: RecordSource = io.open(root, stores, indexOptions(flags));
    const rows = source.rows();
    source.close();
    const counts = stores.map((store) => ({
      ...store,
      records: rows.filter((row) => row.store === store.store).length,
    }));
    if (flags.json)
      out.push(
        JSON.stringify(
          counts.map(({ store, exists, extra, records }) => ({ store, exists, extra, records })),
          null,
          2,
        ),
      );
    else
      for (const store of counts)
        out.push(
          `${store.store}\t${store.exists ? countNoun(store.records, 'record') : '(missing)'}${store.extra ? '\t(extra)' : ''}`,
        );
    write();
    return EXIT.ok;
  }

  // Stat only the files that can change this answer: --cat's named records, --recall's
  // failure modes (see RecordsCheck for what each misses); every other query checks every file.
  const catPaths = flags.cat
    ?.flatMap((arg) => arg.split(/\r\n|\r|\n/))
    .map((path) => normalizeRecordPath(root, path));
  const source = io.open(root, stores, {
    ...indexOptions(flags),
    check: catPaths ? { paths: catPaths } : flags.recall !== undefined ? 'failure-modes' : 'files',
    onFallback: (why) => io.err(`tally: no on-disk index (${why}); scanning every record.\n`),
  });
  try {
    if (flags.cat !== undefined) {
      // Membership of the named paths only: a Set of every record path costs ~50 ms at 50,000.
      const allowed = source.pathsAmong ? source.pathsAmong(catPaths ?? []) : source.paths();
      io.out(formatDump(catRecords(root, flags.cat, allowed)));
      return EXIT.ok;
    }
    if (flags.recall !== undefined) {
      if (!flags.recall.trim())
        throw new RecordsUsageError('RECALL_EMPTY', '--recall needs terms, e.g. --recall "migration lock".');
      const limit = limitOf(flags) ?? RECALL_CAP;
      const { matched, hits, malformedLines, malformedLineNumbers } = recall(
        root,
        source.recallCandidates(flags.recall),
        flags.recall,
        io.failureLog,
        limit,
      );
      if (malformedLines > 0)
        io.err(
          `tally: skipped ${malformedLines} malformed line${malformedLines === 1 ? '' : 's'} in mistakes.jsonl (line ${malformedLineNumbers.slice(0, 20).join(', ')}${malformedLines > 20 ? ', …' : ''}: not a JSON object); fix or remove ${malformedLines === 1 ? 'it' : 'them'}\n`,
        );
      if (flags.json) {
        out.push(JSON.stringify({ matched, hits }, null, 2));
      } else {
        out.push(`recall: ${matched} matched`);
        for (const hit of hits) out.push(`${hit.where} — ${hit.text}`);
        if (matched > limit) out.push(`(showing ${limit} of ${matched}; add terms or raise --limit)`);
      }
      write();
      return EXIT.ok;
    }
    if (!filters)
      throw new RecordsUsageError(
        'QUERY_EMPTY',
        'Nothing to search for: give --keyword, --kind, --id, --links-to or --project (or a mode: --cat, --recall, --list-stores).',
      );
    const query: RecordQuery = {
      ...(flags.keyword !== undefined ? { keyword: flags.keyword } : {}),
      ...(flags.kind !== undefined ? { kind: flags.kind } : {}),
      ...(flags.id !== undefined ? { id: flags.id } : {}),
      ...(flags.linksTo !== undefined ? { linksTo: flags.linksTo } : {}),
      ...(flags.project !== undefined ? { project: flags.project } : {}),
    };
    const limit = limitOf(flags);
    if (flags.json) {
      const all = source.query(query);
      out.push(JSON.stringify(limit === undefined ? all : all.slice(0, limit), null, 2));
      write();
      return EXIT.ok;
    }
    const rows = source.survey({ ...query, ...(limit !== undefined ? { limit } : {}) });
    if (rows.length > 0) out.push(survey(rows));
    if (flags.full && rows.length > 0) {
      out.push(
        '',
        dumpRecords(
          root,
          rows.slice(0, FULL_CAP).map((row) => row.path),
        ).replace(/\n$/, ''),
      );
      if (rows.length > FULL_CAP)
        out.push(
          `(${rows.length} records matched; dumped the first ${FULL_CAP} — dump the rest with --cat PATH…)`,
        );
    }
    write();
    return EXIT.ok;
  } finally {
    source.close();
  }
}
