import type { Effect } from './effects.js';
import { DECLARATION_ERROR } from './errors.js';
import type { Ledger } from './ledger/ledger.js';
import type { AnyStatsContributor } from './ledger/stats-contributor.js';
import type { ToolDefinition } from './tool.js';

/**
 * What a surface hands a pack when it builds a session's tools. Only surface-neutral facts:
 * the pack reads its own options (`flags`) and decides what they mean.
 */
export interface PackContext {
  /** The project root the surface serves (`tally mcp --root`), absolute. */
  root: string;
  /** Values of the pack's declared flags, by flag name (`db`, `captures`). */
  flags: Readonly<Record<string, string | string[] | undefined>>;
  /** The ledger the session records in (a pack may link sub-runs to it). */
  ledger?: Ledger;
  /** Paths the tools must never touch: the ledger that judges them. */
  protect: readonly string[];
  /** Records a fail-open under this pack's own reasons. */
  failOpen: (component: string, why: string) => void;
}

/** A session's share of one pack: its tools and what to release when the session ends. */
export interface PackSession {
  tools: ToolDefinition[];
  close?: () => void | Promise<void>;
  /** Values the session's run must scrub wherever they reappear (credentials the pack holds). */
  knownSecrets?: string[];
  /**
   * Pack-specific objects a surface may use when it knows them (the workspace pack's project
   * root, which an MCP client's roots may narrow). Core never reads them.
   */
  provides?: Record<string, unknown>;
}

/** A flag the pack reads: `tally mcp --pack-option sql.db=./app.db` for a pack loaded from a module. */
export interface PackFlag {
  name: string;
  description: string;
  /** May be given several times; the pack then gets a list. */
  repeatable?: boolean;
  required?: boolean;
}

/** A tool call a probe may script: the tool's name and its input. */
export interface ProbeCall {
  tool: string;
  input: unknown;
}

/**
 * How a pack's own tools can be turned against a claim, for `probeAgent`: the generic lies
 * (fabricated id, duplicate, wrong type, another run's resource) need nothing from a pack; the
 * ones below need to know the tools. Each answers undefined where it has no such call.
 */
export interface PackAdversaries {
  /** A call that only reads the resource an effect named ("read claimed as write"). */
  read?: (effect: Effect) => ProbeCall | undefined;
  /** A call that deletes it ("created, then deleted, claimed as created"). */
  remove?: (effect: Effect) => ProbeCall | undefined;
  /** A version of an honest call that fails, changing nothing ("failed call claimed", "refused step omitted"). */
  fail?: (call: ProbeCall) => ProbeCall | undefined;
}

export type { DialectSql, StatsContributor, StatsSource } from './ledger/stats-contributor.js';

export interface PackOptions {
  /** Lower-case, `a-z0-9-`: what `--packs` names. */
  name: string;
  description: string;
  /** Builds the tools of one session (one MCP session, one agent run). */
  tools: (context: PackContext) => PackSession | ToolDefinition[] | Promise<PackSession | ToolDefinition[]>;
  /** Runs once when a server starts serving the pack (before any session): a sweep of leftovers. */
  prepare?: (context: PackContext) => void | Promise<void>;
  /** The pack's closed list of fail-open reasons (kebab-case); registered with the pack. */
  failOpenReasons?: readonly string[];
  /** Its shares of `tally stats` (see `StatsContributor`): core asks each for its own counts. */
  statsContributors?: readonly AnyStatsContributor[];
  flags?: readonly PackFlag[];
  adversaries?: PackAdversaries;
  /** Releases what the pack holds for the whole process (not per session). */
  close?: () => void | Promise<void>;
}

/**
 * Recognisable across package copies (a pack module compiled against another copy of
 * tally-harness, loaded by `--pack-module`): a registered symbol, not a class.
 */
export const PACK_MARK: unique symbol = Symbol.for('tally-harness.pack') as never;

export interface Pack extends Readonly<Omit<PackOptions, 'tools'>> {
  readonly [PACK_MARK]: true;
  readonly failOpenReasons: readonly string[];
  readonly flags: readonly PackFlag[];
  /** Builds one session's tools; a bare list becomes `{ tools }`. */
  session(context: PackContext): Promise<PackSession>;
}

const PACK_NAME = /^[a-z][a-z0-9-]{0,39}$/;
const REASON = /^[a-z][a-z0-9-]{0,59}$/;
const FLAG_NAME = /^[a-z][a-z0-9-]{0,39}$/;

export class PackDefinitionError extends TypeError {
  readonly code = 'PACK_INVALID';
  readonly [DECLARATION_ERROR] = true;
}

/** Checks a pack's declaration once, where it is written, so a bad one fails before any session. */
export function definePack(options: PackOptions): Pack {
  const where = `Pack "${options.name}"`;
  if (!PACK_NAME.test(options.name))
    throw new PackDefinitionError(
      `Pack name "${options.name}" must be lower-case letters, digits and "-", starting with a letter.`,
    );
  const reasons = [...(options.failOpenReasons ?? [])];
  for (const reason of reasons)
    if (!REASON.test(reason))
      throw new PackDefinitionError(
        `${where}: fail-open reason "${reason}" must be kebab-case (a-z, 0-9, -), starting with a letter.`,
      );
  if (new Set(reasons).size !== reasons.length)
    throw new PackDefinitionError(`${where}: a fail-open reason is declared twice.`);
  const flags = [...(options.flags ?? [])];
  for (const flag of flags)
    if (!FLAG_NAME.test(flag.name))
      throw new PackDefinitionError(`${where}: flag "${flag.name}" must be lower-case kebab-case.`);
  if (new Set(flags.map((flag) => flag.name)).size !== flags.length)
    throw new PackDefinitionError(`${where}: a flag is declared twice.`);
  const build = options.tools;
  return Object.freeze({
    ...options,
    [PACK_MARK]: true as const,
    failOpenReasons: Object.freeze(reasons),
    flags: Object.freeze(flags),
    async session(context: PackContext): Promise<PackSession> {
      const built = await build(context);
      return Array.isArray(built) ? { tools: built } : built;
    },
  });
}

export function isPack(value: unknown): value is Pack {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PACK_MARK] === true
  );
}
