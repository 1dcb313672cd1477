import type { Command } from 'commander';
import { DECLARATION_ERROR } from '../core/errors.js';
import type { AnyStatsContributor } from '../core/ledger/stats-contributor.js';

/** A positional argument of an agent's command, in commander's spelling: `<goal>`, `[task...]`. */
export interface AgentSurfaceArgument {
  readonly name: string;
  readonly description: string;
}

/** An option of an agent's command: commander's flags string, and how a value is read. */
export interface AgentSurfaceOption {
  /** `--root <dir>`, `--json`, `--no-recipes`. */
  readonly flags: string;
  readonly description: string;
  /** Reads one value (and the earlier ones, for a repeatable flag); thrown errors are usage errors. */
  // biome-ignore lint/suspicious/noExplicitAny: commander's own parser signature
  readonly parse?: (value: string, previous: any) => unknown;
  readonly defaultValue?: string | boolean | string[];
}

/** How an agent is run from the shell: `tally NAME ARGS… --OPTIONS`. */
export interface AgentSurfaceCli<Flags> {
  readonly arguments: readonly AgentSurfaceArgument[];
  readonly options: readonly AgentSurfaceOption[];
  /**
   * Runs the agent and writes what the user reads; returns the exit code. `args` are the
   * positional values in declaration order (a variadic one is a string array). Load the agent
   * here (a dynamic import), so the other commands do not pay for it at start-up.
   */
  run(args: readonly unknown[], flags: Flags, command: Command): Promise<number>;
}

export interface AgentSurfaceOptions<Flags> {
  /** The command's name: `tally NAME …`. */
  readonly name: string;
  /** One line for `tally --help`. */
  readonly description: string;
  readonly cli: AgentSurfaceCli<Flags>;
  /**
   * The agent's shares of `tally stats` (see core/ledger/stats-contributor.ts), or a function that
   * loads them: a built-in surface is imported at every start-up, its contributors only by stats.
   */
  readonly statsContributors?:
    | readonly AnyStatsContributor[]
    | (() => Promise<readonly AnyStatsContributor[]>);
}

export const AGENT_SURFACE_MARK: unique symbol = Symbol.for('tally-harness.agent-surface') as never;

// biome-ignore lint/suspicious/noExplicitAny: a surface's flags are its own; the CLI only passes them on
export interface AgentSurface<Flags = any> extends AgentSurfaceOptions<Flags> {
  readonly [AGENT_SURFACE_MARK]: true;
}

export class AgentSurfaceDefinitionError extends TypeError {
  readonly code = 'AGENT_SURFACE_INVALID';
  readonly [DECLARATION_ERROR] = true;
}

/**
 * An agent's place on the surfaces: its CLI command (and stats contributors), declared once.
 * The CLI builds a command from each registered surface, so a new agent reaches `tally` without
 * an edit to main.ts. Checked here, where it is written, so a bad one fails before any command.
 */
export function defineAgentSurface<Flags>(options: AgentSurfaceOptions<Flags>): AgentSurface<Flags> {
  const where = `Agent surface "${options.name}"`;
  if (!/^[a-z][a-z0-9-]*$/.test(options.name))
    throw new AgentSurfaceDefinitionError(
      `${where}: a name is lowercase letters, digits and dashes, starting with a letter (it becomes \`tally ${options.name}\`).`,
    );
  if (options.description.trim() === '')
    throw new AgentSurfaceDefinitionError(`${where} needs a description: it is its line in tally --help.`);
  for (const argument of options.cli.arguments)
    if (!/^(<[a-z][a-z0-9-]*(\.\.\.)?>|\[[a-z][a-z0-9-]*(\.\.\.)?\])$/.test(argument.name))
      throw new AgentSurfaceDefinitionError(
        `${where}: argument "${argument.name}" is not <name>, [name], <name...> or [name...].`,
      );
  for (const option of options.cli.options)
    if (!/^(-[a-zA-Z], )?--[a-z][a-z0-9-]*( <[^<>\s]+>| \[[^[\]\s]+\])?$/.test(option.flags))
      throw new AgentSurfaceDefinitionError(
        `${where}: option "${option.flags}" is not --name, --name <value> or --name [value].`,
      );
  return Object.freeze({ ...options, [AGENT_SURFACE_MARK]: true as const });
}

/** By the `Symbol.for` mark, so a surface built against another copy of tally-harness counts. */
export function isAgentSurface(value: unknown): value is AgentSurface {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[AGENT_SURFACE_MARK] === true
  );
}

/** A surface's stats contributors, loaded if it declared them as a function. */
export async function statsContributorsOf(surface: AgentSurface): Promise<readonly AnyStatsContributor[]> {
  const declared = surface.statsContributors ?? [];
  return typeof declared === 'function' ? await declared() : declared;
}
