import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Argument, type Command, Option } from 'commander';
import { isDeclarationError, TallyError } from '../../core/errors.js';
import { type AgentSurface, defineAgentSurface, isAgentSurface } from '../agent-surface.js';
import type { CodeFlags } from './code-command.js';
import { parsePort } from './parse-option-values.js';
import { collect } from './variadic-values.js';

// The CLI side of agent surfaces: the built-in agents' surfaces, those a --surface-module
// exports, and the command each becomes. One module, because every `tally` start imports it and
// each module more costs start-up time (~2 ms here); what runs an agent is imported by its `run`.

/** `tally scout "<goal>"`: declared here, run by scout-command.ts (loaded only when it runs). */
export const scoutSurface = defineAgentSurface<{
  root?: string;
  session?: string;
  json?: boolean;
  model?: string;
}>({
  name: 'scout',
  description:
    'Find the records that govern a goal (no model needed): recall, probes, one --cat batch, verified.',
  cli: {
    arguments: [
      { name: '<goal>', description: 'what you are about to do, e.g. "release a version of acme/shop"' },
    ],
    options: [
      { flags: '--root <dir>', description: 'records root' },
      {
        flags: '--session <id>',
        description: 'session id for warm start and the digest (default $TALLY_SESSION_ID)',
      },
      {
        flags: '--model <spec>',
        description: 'a model chooses the probes and judges what governs (empty: no model)',
      },
      { flags: '--json', description: 'machine-readable output' },
    ],
    run: async ([goal], flags, command) =>
      (await import('./scout-command.js')).default(goal as string, flags, command),
  },
});

/** `tally code "<task>"`: declared here, run by code-command.ts (loaded only when it runs). */
export const codeSurface = defineAgentSurface<CodeFlags>({
  name: 'code',
  description:
    'One chat turn of the Coder in --root (no task: an interactive chat; Ctrl-D ends). Prints the reply, the files this turn changed, and any false statements.',
  // Loaded by tally stats only: the other commands never pay for the chat-turn queries.
  statsContributors: async () => [(await import('../../agents/coder/chat-turn-stats.js')).chatTurnStats],
  cli: {
    arguments: [{ name: '[task...]', description: 'what to do, e.g. "add a health check to src/server.ts"' }],
    options: [
      {
        flags: '--root <dir>',
        description: 'the project root every path resolves against',
        defaultValue: '.',
      },
      { flags: '--chat <id>', description: 'continue this chat (the id a previous turn printed)' },
      {
        flags: '--model <spec>',
        description: 'model, e.g. openai:gpt-4.1-mini (default $TALLY_MODEL); may change between turns',
      },
      { flags: '--json', description: 'machine-readable output' },
      {
        flags: '--replay <cassette>',
        description: 'replay a recorded model transcript through the real loop (no key)',
      },
      {
        flags: '--var <name=value>',
        description: "--replay: fill the cassette's {{NAME}} placeholders",
        parse: collect,
      },
      { flags: '--ui', description: 'serve a chat page on 127.0.0.1 instead of the terminal chat' },
      {
        flags: '--port <n>',
        description: '--ui: port (0 picks a free one)',
        parse: parsePort,
        defaultValue: '0',
      },
      {
        flags: '--records-root <dir>',
        description:
          'records root: where decision records go, and what the scout tool searches (default: --root when it has references/)',
      },
    ],
    run: async ([task], flags, command) =>
      (await import('./code-command.js')).default(task as string[], flags, command),
  },
});

/**
 * The built-in agents that reach the CLI through defineAgentSurface: `tally` builds one command
 * from each, in this order, and `tally stats` adds their stats contributors. `fish` is still a
 * hand-written command in main.ts (its subcommands and fast path have not moved).
 */
export const BUILT_IN_AGENT_SURFACES: readonly AgentSurface[] = [scoutSurface, codeSurface];

/** The global flag that names a module of agent surfaces; read before commander parses. */
export const SURFACE_MODULE_FLAG = '--surface-module';

/**
 * Every `--surface-module PATH` (or `=PATH`) in the raw arguments, up to `--`. Read before the
 * program is built, because the commands those modules declare must exist before parsing.
 */
export function surfaceModulesIn(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  const words = end === -1 ? argv.slice(2) : argv.slice(2, end);
  const paths: string[] = [];
  words.forEach((word, at) => {
    if (word === SURFACE_MODULE_FLAG && words[at + 1] !== undefined) paths.push(words[at + 1] as string);
    else if (word.startsWith(`${SURFACE_MODULE_FLAG}=`))
      paths.push(word.slice(SURFACE_MODULE_FLAG.length + 1));
  });
  return paths;
}

/** A module's agent surfaces: its default export and every named export built with defineAgentSurface. */
export async function loadSurfaceModule(path: string): Promise<AgentSurface[]> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (error) {
    // Any copy's: a surface module is built against its own copy of Tally.
    if (isDeclarationError(error) && error.code === 'AGENT_SURFACE_INVALID')
      throw new TallyError(error.code, error.message);
    throw new TallyError(
      'SURFACE_MODULE_UNLOADABLE',
      `--surface-module ${path} could not be loaded: ${error instanceof Error ? error.message : String(error)}. Pass a JavaScript module (compiled) that exports an agent surface built with defineAgentSurface.`,
    );
  }
  const surfaces = [...new Set(Object.values(module))].filter(isAgentSurface);
  if (surfaces.length === 0)
    throw new TallyError(
      'SURFACE_MODULE_EMPTY',
      `--surface-module ${path} exports no agent surface. Export one built with defineAgentSurface({ name, description, cli }) from tally-harness.`,
    );
  return surfaces;
}

/** Every surface of every module, in order. */
export async function loadSurfaceModules(paths: readonly string[]): Promise<AgentSurface[]> {
  const surfaces: AgentSurface[] = [];
  for (const path of paths) surfaces.push(...(await loadSurfaceModule(path)));
  return surfaces;
}

/**
 * `tally NAME ARGS… --OPTIONS` from a surface. A name an existing command (or one of its
 * aliases) has is refused: the later one would silently never run.
 */
export function addAgentSurfaceCommand(
  program: Command,
  surface: AgentSurface,
  setCode: (code: number) => void,
): void {
  const taken = program.commands.find(
    (command) => command.name() === surface.name || command.aliases().includes(surface.name),
  );
  if (taken)
    throw new TallyError(
      'AGENT_SURFACE_TAKEN',
      `An agent surface is named "${surface.name}", but tally already has a command of that name: rename the surface.`,
    );
  const command = program.command(surface.name).description(surface.description);
  for (const argument of surface.cli.arguments)
    command.addArgument(new Argument(argument.name, argument.description));
  for (const declared of surface.cli.options) {
    const option = new Option(declared.flags, declared.description);
    if (declared.parse) option.argParser(declared.parse);
    if (declared.defaultValue !== undefined) option.default(declared.defaultValue);
    command.addOption(option);
  }
  // Commander passes the positional values, then the options, then the command itself.
  command.action(async (...values: unknown[]) => {
    const self = values.at(-1) as Command;
    const flags = values.at(-2) as Record<string, unknown>;
    setCode(await surface.cli.run(values.slice(0, -2), flags, self));
  });
}
