import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Argument, type Command, Option } from 'commander';
import { TallyError } from '../../core/errors.js';
import { type AgentSurface, AgentSurfaceDefinitionError, isAgentSurface } from '../agent-surface.js';

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
    if (error instanceof AgentSurfaceDefinitionError) throw new TallyError(error.code, error.message);
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
