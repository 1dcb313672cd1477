/**
 * `tally records query` without commander: the scout and the how-do-i skill call it many times
 * a turn, so its start-up is most of its cost. `bin/tally.js` loads this module's bundle
 * (`dist/fast/cli/records-query.cjs`) and runs it only when `parseRecordsQueryArgs` accepts
 * the arguments; anything it does not recognise exactly (help, `--opt=value`, a repeated flag,
 * a stray word, a global option) goes to the full CLI, so both paths behave the same. Either
 * way `runRecordsQuery` asks a resident server first (records-resident-client.ts).
 */
import recordsQueryCommand, { type RecordsFlags } from './records-command.js';
import { askResident, residentEligible, residentTarget, startResident } from './records-resident-client.js';
import { reportError } from './report-error.js';
import { writeStdout } from './write-stdout.js';

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

/** TALLY_RECORDS_RESIDENT_IDLE_EXIT (seconds) when it is a positive number, else the default. */
function idleExitOf(env: NodeJS.ProcessEnv): number | undefined {
  const seconds = Number(env.TALLY_RECORDS_RESIDENT_IDLE_EXIT);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

export interface RunRecordsQueryOptions {
  /**
   * The launcher (`bin/tally.js`) to start a resident server with when none answered; without
   * it no server is started (a server already running is still asked).
   */
  launcher?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs the query as the full CLI would, errors reported the same way; returns the exit code.
 * A resident server of the same root and build (`tally records serve`) answers first when one
 * listens: it prints exactly what this process would, from an index it keeps fresh by watching
 * the stores, so the per-query check of every record file is skipped. When none listens, the
 * query runs here and, with a launcher and unless TALLY_RECORDS_RESIDENT=0, starts one in the
 * background for the next query (it exits after 10 minutes without one).
 */
export async function runRecordsQuery(
  flags: RecordsFlags,
  options: RunRecordsQueryOptions = {},
): Promise<number> {
  const env = options.env ?? process.env;
  let startFor: Parameters<typeof startResident>[1] | undefined;
  try {
    if (residentEligible(flags, env)) {
      const target = residentTarget(flags, env);
      if (!('miss' in target)) {
        const answer = await askResident(target, flags);
        if (!('miss' in answer)) {
          // Both streams at once, as the one-shot path would have written them.
          if (answer.stderr) process.stderr.write(answer.stderr);
          writeStdout(answer.stdout);
          return answer.code;
        }
        // A miss is silent (even with TALLY_DEBUG): the answer must read as the one-shot one.
        if (answer.miss === 'absent') startFor = target;
      }
    }
    const code = await recordsQueryCommand(flags);
    if (startFor && options.launcher) startResident(options.launcher, startFor, idleExitOf(env));
    return code;
  } catch (error) {
    return reportError(error, { json: Boolean(flags.json), debug: env.TALLY_DEBUG === '1' });
  }
}

/**
 * The full CLI's `records query` (commander, for spellings the fast path leaves to it): the
 * same resident-first run, a server started through the launcher that runs this process.
 */
export default function recordsQueryAction(flags: RecordsFlags): Promise<number> {
  const launcher = process.argv[1];
  return runRecordsQuery(flags, launcher?.endsWith('tally.js') ? { launcher } : {});
}
