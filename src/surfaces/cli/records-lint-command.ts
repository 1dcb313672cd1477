import { lintRecords } from '../../packs/records/lint-records.js';
import { openRecordSource } from '../../packs/records/open-record-source.js';
import { listStores, resolveRecordsRoot } from '../../packs/records/stores.js';
import { visibleOneLine } from '../visible-controls.js';
import { countNoun } from './count-noun.js';
import { EXIT } from './exit-codes.js';

/** `tally records lint`: required keys, unique ids, links that resolve, non-empty keywords. */
export default async function recordsLintCommand(flags: { root?: string; json?: boolean }): Promise<number> {
  const root = resolveRecordsRoot(flags.root);
  const stores = listStores(root);
  const source = openRecordSource(root, stores);
  let rows: ReturnType<typeof source.rows>;
  let skipped: ReturnType<NonNullable<typeof source.skipped>>;
  try {
    rows = source.rows();
    skipped = source.skipped?.() ?? [];
  } finally {
    source.close();
  }
  const problems = lintRecords(
    rows,
    stores.map((store) => store.store),
    skipped,
  );
  const records = rows.length + skipped.length;
  if (flags.json) process.stdout.write(`${JSON.stringify({ records, problems }, null, 2)}\n`);
  else {
    // A path or a parser's message can quote the record's bytes: shown, never obeyed.
    for (const problem of problems)
      process.stdout.write(`${visibleOneLine(`${problem.path}: ${problem.problem}`)}\n`);
    process.stdout.write(`${countNoun(records, 'record')}, ${countNoun(problems.length, 'problem')}\n`);
  }
  return problems.length === 0 ? EXIT.ok : EXIT.notMet;
}
