import { Command, CommanderError } from 'commander';
import { EXIT } from './exit-codes.js';
import { reportError } from './report-error.js';

// biome-ignore lint/suspicious/noExplicitAny: commander passes positional arguments, options and the command
type Action = (...args: any[]) => Promise<number>;

/** Lazily loads a command module so a command imports only what it uses. */
function lazy(
  load: () => Promise<{ default: Action }>,
  setCode: (code: number) => void,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const module = await load();
    setCode(await module.default(...args));
  };
}

export function buildProgram(setCode: (code: number) => void): Command {
  const program = new Command('tally')
    .description('Run LLM agents whose reports tally with what they actually did.')
    .option('--ledger <path>', 'ledger database (default: $TALLY_LEDGER or .tally/ledger.db)')
    .showHelpAfterError()
    .exitOverride();

  const runs = program
    .command('runs')
    .description('List runs in the ledger, newest first.')
    .option('--limit <n>', 'how many runs', '20')
    .option('--agent <name>', 'only runs of this agent')
    .option('--json', 'machine-readable output')
    .action(lazy(() => import('./runs-command.js'), setCode));
  runs
    .command('show <runId>')
    .description('Show one run: every model call, tool call with evidence, claim and the ending.')
    .option('--json', 'export the run as JSON')
    .action(lazy(() => import('./runs-show-command.js'), setCode));

  program
    .command('stats')
    .description(
      'Ending reasons, recovery rate, guard and gate fires, rejections per day, fail-opens by why.',
    )
    .option('--since <when>', 'a duration (7d, 12h) or a date', '7d')
    .option('--json', 'machine-readable output')
    .action(lazy(() => import('./stats-command.js'), setCode));

  program
    .command('demo')
    .description('Run the built-in demonstration on embedded defaults (no API key, no network).')
    .option('--json', 'machine-readable output')
    .action(lazy(() => import('./demo-command.js'), setCode));

  return program;
}

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram((next) => {
    code = next;
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return reportError(error);
  }
  return code;
}
