/**
 * `tally records query` without commander: the scout and the how-do-i skill call it many times
 * a turn, so its start-up is most of its cost. `bin/tally.js` loads this module's bundle
 * (`dist/fast/cli/records-query.cjs`) and runs it only when `parseRecordsQueryArgs` accepts
 * the arguments; anything it does not recognise exactly (help, `--opt=value`, a repeated flag,
 * a stray word, a global option) goes to the full CLI, so both paths behave the same.
 */
import recordsQueryCommand, { type RecordsFlags } from './records-command.js';
import { reportError } from './report-error.js';

type ValueFlag = 'root' | 'keyword' | 'kind' | 'id' | 'linksTo' | 'project' | 'limit' | 'recall';

const VALUE_OPTIONS: Record<string, ValueFlag> = {
  '--root': 'root',
  '--keyword': 'keyword',
  '--kind': 'kind',
  '--id': 'id',
  '--links-to': 'linksTo',
  '--project': 'project',
  '--limit': 'limit',
  '--recall': 'recall',
};

/**
 * The flags of `records query ARGS…` (ARGS: what follows `query`), or undefined when the full
 * CLI should parse them. Only unambiguous spellings are taken: `--opt value` with a value not
 * starting with `-`, boolean flags, `--cat` paths up to the next option.
 */
export function parseRecordsQueryArgs(args: string[]): RecordsFlags | undefined {
  const flags: RecordsFlags = {};
  const seen = new Set<string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (seen.has(arg)) return undefined;
    seen.add(arg);
    const name = VALUE_OPTIONS[arg];
    if (name !== undefined) {
      const value = args[index + 1];
      if (value === undefined || value.startsWith('-')) return undefined;
      flags[name] = value;
      index++;
    } else if (arg === '--index') {
      const value = args[index + 1];
      if (value === undefined || value.startsWith('-') || seen.has('--no-index')) return undefined;
      flags.index = value;
      index++;
    } else if (arg === '--no-index') {
      if (seen.has('--index')) return undefined;
      flags.index = false;
    } else if (arg === '--full') flags.full = true;
    else if (arg === '--json') flags.json = true;
    else if (arg === '--list-stores') flags.listStores = true;
    else if (arg === '--cat') {
      const paths: string[] = [];
      while (index + 1 < args.length && !(args[index + 1] as string).startsWith('-'))
        paths.push(args[++index] as string);
      if (paths.length === 0) return undefined;
      flags.cat = paths;
    } else return undefined;
  }
  return flags;
}

/** Runs the query as the full CLI would, errors reported the same way; returns the exit code. */
export async function runRecordsQuery(flags: RecordsFlags): Promise<number> {
  try {
    return await recordsQueryCommand(flags);
  } catch (error) {
    return reportError(error, { json: Boolean(flags.json), debug: process.env.TALLY_DEBUG === '1' });
  }
}
