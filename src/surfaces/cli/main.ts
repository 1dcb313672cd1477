import { Command, CommanderError } from 'commander';
import type { AgentSurface } from '../agent-surface.js';
import {
  addAgentSurfaceCommand,
  BUILT_IN_AGENT_SURFACES,
  loadSurfaceModules,
  surfaceModulesIn,
} from './agent-surface-commands.js';
import { EXIT } from './exit-codes.js';
import { packageVersion } from './package-version.js';
import { parseBaseUrl, parsePort, parsePositiveWholeNumber } from './parse-option-values.js';
import { errorOptionsFrom, type ReportErrorOptions, reportError } from './report-error.js';
import { guardStandardStreams, reportStdoutFailure } from './standard-streams.js';
import { hintAfterUsageErrors } from './usage-hint.js';
import { collect, splitVariadicValues } from './variadic-values.js';

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

/**
 * The program with every command, or, given `only`, with the global options and that one
 * top-level command (its subcommands included) alone: what commander does with `tally fish …`
 * depends on nothing else, and registering all the others was ~3 ms of every command (issue 22).
 * A name no built-in command has registers none (see `main`).
 */
export function buildProgram(
  setCode: (code: number) => void,
  errors: ReportErrorOptions = {},
  moduleSurfaces: readonly AgentSurface[] = [],
  only?: string,
): Command {
  const wanted = (name: string) => only === undefined || name === only;
  const program = new Command('tally')
    .description('Run LLM agents whose reports tally with what they actually did.')
    .version(packageVersion(), '-v, --version', 'print the version (-V too)')
    .option('--ledger <path>', 'ledger database (default: $TALLY_LEDGER or .tally/ledger.db)')
    .option('--debug', 'show stack traces for errors (or TALLY_DEBUG=1)')
    .option('--quiet', 'no live progress while agents run')
    .option('--verbose', 'live progress with tool inputs, nudges, claims and whole model texts')
    .option('--events', 'every run event as one JSON line on stderr (works with --json)')
    .option(
      '--surface-module <path>',
      'a JavaScript module exporting agent surfaces (defineAgentSurface): each becomes a command',
      collect,
    )
    .exitOverride();
  // A --ledger (or TALLY_LEDGER) that is a symlink loop, a dangling symlink, a directory or a
  // FIFO is refused before any command runs: exit 3, LEDGER_UNAVAILABLE, one line saying what is
  // wrong. Not for `hook` (Claude Code's hooks never fail on the ledger) nor `doctor` (which
  // reports it among its checks).
  program.hook('preAction', async (_program, action) => {
    let top = action;
    while (top.parent && top.parent !== program) top = top.parent;
    if (top.name() === 'hook' || top.name() === 'doctor') return;
    const named = (program.opts().ledger as string | undefined) || process.env.TALLY_LEDGER;
    if (!named) return;
    const [{ checkLedgerPath }, { resolveLedgerPath }] = await Promise.all([
      import('../../core/ledger/check-ledger-path.js'),
      import('../../core/ledger/resolve-ledger-path.js'),
    ]);
    checkLedgerPath(resolveLedgerPath({ flag: named }));
  });
  // Under --json a usage error is reported once, as JSON on stdout (see main), not as text.
  if (errors.json) program.configureOutput({ outputError: () => undefined, writeErr: () => undefined });

  if (wanted('runs')) {
    const runs = program
      .command('runs')
      .description('List runs in the ledger, newest first.')
      .option('--limit <n>', 'how many runs', parsePositiveWholeNumber, '20')
      .option('--agent <name>', 'only runs of this agent')
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./runs-command.js'), setCode));
    runs
      .command('show <runId>')
      .description('Show one run: every model call, tool call with evidence, claim and the ending.')
      .option('--json', 'export the run as JSON')
      .option('--full', 'show every input, result and evidence whole (nothing cut)')
      .action(lazy(() => import('./runs-show-command.js'), setCode));
  }
  if (wanted('report')) {
    program
      .command('report')
      .description('Write a self-contained HTML report of a run: timeline, evidence, net effects, claims.')
      .argument('<runId>', 'the run to report')
      .option('--out <file>', 'where to write it (default tally-report-RUN.html)')
      .action(lazy(() => import('./report-command.js'), setCode));
  }

  if (wanted('verify')) {
    program
      .command('verify')
      .description(
        "Recompute a past run's verdict from its ledger entries alone and say whether it matches the recorded one.",
      )
      .argument('<runId>', 'the run to verify')
      .option(
        '--live',
        "also re-check today's state: created resources, files and records unchanged since the run",
      )
      .option('--root <dir>', "--live: the project (files) or records root (default: the run's, else here)")
      .option(
        '--captures <paths>',
        "--live: captures for the run's API session (default: the run's)",
        collect,
      )
      .option('--base-url <url>', "--live: the API's base URL (default: the run's)", parseBaseUrl)
      .option('--login <recipe>', "--live: login recipe for the run's API (default: the run's)")
      .option('--header <header>', '--live: extra request header "Name: value"', collect)
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./verify-command.js'), setCode));
  }

  if (wanted('stats')) {
    program
      .command('stats')
      .description(
        'Ending reasons, recovery rate, guard and gate fires, rejections per day, fail-opens by why.',
      )
      .option('--since <when>', 'a duration (7d, 12h) or a date', '7d')
      .option('--json', 'machine-readable output')
      .option(
        '--pack-module <path>',
        "a pack module whose packs' stats contributors add their figures",
        collect,
      )
      .action(lazy(() => import('./stats-command.js'), setCode));
  }

  if (wanted('ledger')) {
    const ledger = program
      .command('ledger')
      .description(
        'Maintain one ledger (--ledger, $TALLY_LEDGER or .tally/ledger.db): check, purge, vacuum; copy between ledgers.',
      );
    ledger
      .command('check')
      .description("SQLite's integrity check and the ledger's own invariants (exit 1 on a problem).")
      .option('--json', 'machine-readable output')
      .action(lazy(async () => ({ default: (await import('./ledger-command.js')).ledgerCheck }), setCode));
    ledger
      .command('purge')
      .description(
        'Retention: delete the runs that lie wholly before a time (whole runs only, never part of one).',
      )
      .requiredOption('--before <when>', 'a duration back from now (90d) or a date (2026-01-01)')
      .option('--dry-run', 'only count what would go')
      .option('--json', 'machine-readable output')
      .action(lazy(async () => ({ default: (await import('./ledger-command.js')).ledgerPurge }), setCode));
    ledger
      .command('vacuum')
      .description('Give the space of purged runs back to the file system.')
      .option('--json', 'machine-readable output')
      .action(lazy(async () => ({ default: (await import('./ledger-command.js')).ledgerVacuum }), setCode));
    ledger
      .command('copy <from> <to>')
      .description(
        'Copy every run of one ledger into another (a file or a postgres:// URL, either way); runs already there are skipped.',
      )
      .option('--json', 'machine-readable output')
      .action(lazy(async () => ({ default: (await import('./ledger-copy-command.js')).default }), setCode));
  }

  if (wanted('fish')) {
    const fish = program
      .command('fish')
      .description("Prepare test data through the app's own API, learned from captured browser traffic.")
      .argument('<request>', 'what to create, e.g. "2 suites with 3 tests each"')
      .option('--captures <paths>', 'HAR files or explorbot output/requests directories', collect)
      .option(
        '--spec <paths>',
        'OpenAPI 3.x / Swagger 2.0 documents (files or URLs); without --captures: achieve mode (auth by --login, --header or $TALLY_FISH_HEADERS)',
        collect,
      )
      .option(
        '--base-url <url>',
        "where the API is now (default: the origin the captures were recorded against, or the spec's server)",
        parseBaseUrl,
      )
      .option('--scope <path>', 'the page the test starts on, e.g. /projects/alpha-shop')
      .option('--login <recipe>', 'a login recipe JSON file (or "demo") for a session made now')
      .option('--header <header>', 'extra request header "Name: value" (wins over everything)', collect)
      .option(
        '--model <spec>',
        'model for requests the deterministic tier cannot plan (default $TALLY_MODEL)',
      )
      .option('--allow-delete', 'allow DELETE of entities this run did not create')
      .option(
        '--concurrency <n>',
        'creates in flight at once; a child waits for its parent',
        parsePositiveWholeNumber,
        '2',
      )
      .option('--no-recipes', 'neither follow nor keep recipes (.tally/recipes/)')
      .option('--emit <format-and-file>', 'write setup code: playwright FILE.ts, or json FILE', collect)
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./fish-command.js'), setCode));
    fish
      .command('cleanup <runIds...>')
      .description('Delete exactly what runs created, children first, and confirm each deletion by a read.')
      .option('--captures <paths>', 'captures (default: those the run used)', collect)
      .option('--base-url <url>', "API base URL (default: the run's)", parseBaseUrl)
      .option('--login <recipe>', "login recipe (default: the run's)")
      .option('--header <header>', 'extra request header "Name: value"', collect)
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./fish-cleanup-command.js'), setCode));
    const recipes = fish
      .command('recipes')
      .description(
        'Plans the model found, kept per app and request shape and replayed without it (.tally/recipes/).',
      )
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./fish-recipes-command.js'), setCode));
    recipes
      .command('show <id>')
      .description('Show one recipe: its steps, body templates and links.')
      .option('--json', 'machine-readable output')
      .action(
        lazy(async () => ({ default: (await import('./fish-recipes-command.js')).showRecipe }), setCode),
      );
    recipes
      .command('delete <id>')
      .description('Delete a recipe (the next request of its shape goes to the model again).')
      .action(
        lazy(async () => ({ default: (await import('./fish-recipes-command.js')).deleteRecipe }), setCode),
      );
  }

  if (wanted('capture')) {
    program
      .command('capture')
      .description(
        'Record a browser session as a HAR with bodies, secrets redacted: captures for tally fish.',
      )
      .argument('<url>', 'the page to open, e.g. http://127.0.0.1:4000/login', parseBaseUrl)
      .requiredOption('--out <file>', 'where to write the HAR')
      .option(
        '--script <file>',
        'an ES module `export default async ({ page, context, baseUrl }) => …` that drives the page (headless)',
      )
      .option('--headless', 'no window even when a display exists')
      .option('--keep-secrets', 'keep cookies, tokens and passwords in the HAR (never share such a file)')
      .action(lazy(() => import('./capture-command.js'), setCode));
  }

  if (wanted('records')) {
    const records = program
      .command('records')
      .description('The markdown knowledge-record store: one query surface, and lint.');
    records
      .command('query')
      .description(
        'Search records (survey: "path — gloss"), dump them (--full, --cat), or recall failures. Exit 0 ran, 2 usage/refused, 3 could not search.',
      )
      .option('--root <dir>', 'records root (default $TALLY_RECORDS_ROOT or the working directory)')
      .option('--keyword <terms>', 'BM25 over keywords, title and gloss')
      .option('--kind <kind>', 'records of this kind')
      .option('--id <id>', 'the record with this id')
      .option('--links-to <id>', 'records that link to this id')
      .option('--project <project>', 'owner/repo or repo')
      .option('--limit <n>', 'at most n results')
      .option('--full', 'after the survey, dump up to 10 records')
      .option('--cat <paths...>', 'dump exactly these records (all or nothing)')
      .option('--recall <terms>', 'search the failure log and failure-mode records')
      .option('--list-stores', 'the stores and their record counts')
      .option(
        '--index <path>',
        'the index file (default $TALLY_RECORDS_INDEX, else in the user cache folder)',
      )
      .option('--no-index', 'scan every record instead of using the on-disk index')
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./records-query-fast.js'), setCode));
    records
      .command('serve')
      .description(
        'Keep the index of a records root fresh in the background and answer `records query` from it over a private unix socket (started by the first query unless TALLY_RECORDS_RESIDENT=0).',
      )
      .option('--root <dir>', 'records root (default $TALLY_RECORDS_ROOT or the working directory)')
      .option('--idle-exit <seconds>', 'exit after this long without a query (default 600)')
      .action(lazy(() => import('./records-serve-command.js'), setCode));
    records
      .command('lint')
      .description('Check required keys, unique ids, resolving links and non-empty keywords.')
      .option('--root <dir>', 'records root')
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./records-lint-command.js'), setCode));
  }

  // Agents declared with defineAgentSurface (agent-surface-commands.ts): one command each.
  for (const surface of BUILT_IN_AGENT_SURFACES)
    if (wanted(surface.name)) addAgentSurfaceCommand(program, surface, setCode);

  if (wanted('digest')) {
    program
      .command('digest')
      .description('Session digests: what earlier scout runs in this session found.')
      .command('read')
      .description("Print this session's digests, newest first (read-only).")
      .option('--session <id>', 'the session id (e.g. $CLAUDE_SESSION_ID)')
      .option('--root <dir>', 'records root')
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./digest-read-command.js'), setCode));
  }

  if (wanted('hook')) {
    // A hook must never block Claude Code: unknown names and options still exit 0.
    const hook = program
      .command('hook')
      .description('Claude Code hooks: read the payload on stdin; always exit 0 on their own faults.')
      .argument('[name]', 'the hook')
      .allowUnknownOption()
      .allowExcessArguments()
      .action(lazy(() => import('./hook-unknown-command.js'), setCode));
    hook
      .command('digest-record')
      .description("PostToolUse (Skill): record the scout's digest for the session.")
      .allowUnknownOption()
      .allowExcessArguments()
      .action(lazy(() => import('./hook-digest-record-command.js'), setCode));
    for (const [name, description] of [
      ['turn-reset', 'UserPromptSubmit: start a new turn for the turn gates.'],
      ['turn-record', 'PostToolUse (Skill): note that the am-i-done review ran this turn.'],
      ['gate-how-do-i', "PreToolUse: deny writing tools until this turn's scout run is in the ledger."],
      ['gate-am-i-done', 'Stop: ask for a review at most once per turn.'],
    ])
      hook
        .command(name as string)
        .description(description as string)
        .allowUnknownOption()
        .allowExcessArguments()
        .action(lazy(() => import('./hook-turn-check-command.js'), setCode));
  }

  if (wanted('mcp')) {
    program
      .command('mcp')
      .description("Serve Tally's tools over the Model Context Protocol (every call recorded in the ledger).")
      .requiredOption('--root <dir>', 'the project root the workspace tools are scoped to')
      .option(
        '--packs <list>',
        'comma-separated packs: fs, records, http, browser, or one from --pack-module',
        'fs',
      )
      .option('--pack-module <path>', 'a JavaScript module exporting packs built with definePack', collect)
      .option(
        '--pack-option <pack.flag=value>',
        'a flag of a pack from --pack-module (e.g. sql.db=./app.db)',
        collect,
      )
      .option('--transport <kind>', 'stdio or http', 'stdio')
      .option('--port <n>', 'port for --transport http (0 picks one)', parsePort, '0')
      .option('--host <host>', 'interface for --transport http', '127.0.0.1')
      .option('--auth-token <token>', 'http: bearer token every request must carry (or TALLY_MCP_TOKEN)')
      .option('--allow-origin <origin>', 'http: browser origins allowed besides loopback ones', collect)
      .option('--session-idle-ms <ms>', 'http: end sessions idle this long (default 600000)')
      .option('--max-body-bytes <n>', 'http: largest request body (default 4194304)')
      .option(
        '--roots-timeout-ms <ms>',
        "how long a tool call waits for the client's roots/list answer before going on without it (default 1500, or TALLY_MCP_ROOTS_TIMEOUT_MS)",
      )
      .option('--captures <paths>', 'http pack: HAR files or explorbot directories', collect)
      .option('--base-url <url>', 'http pack: API base URL', parseBaseUrl)
      .option('--scope <path>', 'http pack: default scope')
      .option('--login <recipe>', 'http pack: login recipe file or "demo"')
      .option('--header <header>', 'http pack: extra request header "Name: value"', collect)
      .action(lazy(() => import('./mcp-command.js'), setCode));
  }

  if (wanted('agent')) {
    program
      .command('agent')
      .description(
        'Run an agent a module exports (defineAgent or agentPack) on a task, verified like the others.',
      )
      .argument('<name>', 'the agent (or agent pack) name')
      .argument('<task>', 'what it should do')
      .option('--agent-module <path>', 'a JavaScript module exporting the agent', collect)
      .option(
        '--pack-option <pack.flag=value>',
        'a flag of the agent pack (e.g. shopkeeper.db=./shop.db)',
        collect,
      )
      .option('--root <dir>', 'the project the ledger belongs to (default: .)')
      .option('--model <spec>', 'provider:model (else the agent pin, else TALLY_MODEL)')
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./agent-command.js'), setCode));
  }

  if (wanted('demo-app')) {
    program
      .command('demo-app')
      .description('Start the demo target app (login demo@tally.test / demo-password).')
      .option('--port <n>', 'port (0 picks a free one)', parsePort, '0')
      .option('--host <host>', 'interface to listen on', '127.0.0.1')
      .action(lazy(() => import('./demo-app-command.js'), setCode));
  }

  if (wanted('doctor')) {
    program
      .command('doctor')
      .description(
        'Check Node, the SQLite module, the ledger, playwright-core, Chromium, OTel settings and the plugin; print each fix.',
      )
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./doctor-command.js'), setCode));
  }

  if (wanted('demo')) {
    program
      .command('demo')
      .description('Fisherman on the bundled demo app and HAR: no API key, no browser, no network.')
      .option('--json', 'machine-readable output')
      .action(lazy(() => import('./demo-command.js'), setCode));
  }

  // After every built-in command, so a module's surface cannot take a built-in name.
  for (const surface of moduleSurfaces) addAgentSurfaceCommand(program, surface, setCode);

  hintAfterUsageErrors(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  guardStandardStreams();
  return await reportStdoutFailure(await runMain(argv));
}

async function runMain(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const errors = errorOptionsFrom(argv);
  let program: Command;
  try {
    // Loaded only when named: without --surface-module nothing more is imported at start-up.
    const paths = surfaceModulesIn(argv);
    const surfaces = paths.length === 0 ? [] : await loadSurfaceModules(paths);
    const setCode = (next: number) => {
      code = next;
    };
    // Only the command argv names, when it names one as its first word: a global option first,
    // a typo (commander's "Did you mean"), `help` or a module's surface need the whole program.
    const named = surfaces.length === 0 ? argv[2] : undefined;
    const one =
      named === undefined || named.startsWith('-') ? undefined : buildProgram(setCode, errors, [], named);
    program = one && one.commands.length > 0 ? one : buildProgram(setCode, errors, surfaces);
  } catch (error) {
    return reportError(error, errors);
  }
  try {
    await program.parseAsync(
      splitVariadicValues(argv.map((word, at) => (at === 2 && word === '-V' ? '--version' : word))),
    );
  } catch (error) {
    // --help and --version exit through here with code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return EXIT.ok;
    // Commander has already printed its own message as text; JSON needs the one report.
    if (error instanceof CommanderError && !errors.json) return EXIT.usage;
    return reportError(error, errors);
  }
  return code;
}
