import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isAgent } from '../../core/agent/agent-definition.js';
import { agentPack } from '../../core/agent/agent-tool.js';
import { isDeclarationError, TallyError } from '../../core/errors.js';
import { isPack, type Pack } from '../../core/pack.js';
import type { PackRegistry } from '../../core/pack-registry.js';

/** Pack values from the command line: the built-in http flags come in separately. */
export type PackFlagValues = Map<string, Record<string, string | string[] | undefined>>;

/** `sql.db=./app.db` → ['sql', 'db', './app.db']. */
export function parsePackOption(option: string): [string, string, string] {
  const match = /^([a-z][a-z0-9-]*)\.([a-z][a-z0-9-]*)=(.*)$/s.exec(option);
  if (!match)
    throw new TallyError(
      'PACK_OPTION_INVALID',
      `--pack-option "${option}" is not PACK.FLAG=VALUE. Write it like --pack-option sql.db=./app.db.`,
    );
  return [match[1] as string, match[2] as string, match[3] as string];
}

/** A pack module's packs: its default export and every named export built with definePack. */
export async function loadPackModule(path: string): Promise<Pack[]> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new TallyError(
      'PACK_MODULE_UNLOADABLE',
      `--pack-module ${path} could not be loaded: ${error instanceof Error ? error.message : String(error)}. Pass a JavaScript module (compiled) that exports a pack built with definePack.`,
    );
  }
  const exported = [...new Set(Object.values(module))];
  // An exported agent is served as a pack of its own name: one tool that runs it.
  const packs = [...exported.filter(isPack), ...exported.filter(isAgent).map((agent) => agentPack(agent))];
  if (packs.length === 0)
    throw new TallyError(
      'PACK_MODULE_EMPTY',
      `--pack-module ${path} exports no pack and no agent. Export one built with definePack({ name, tools, … }), defineAgent or agentPack from tally-harness.`,
    );
  return packs;
}

/** Errors of pack declarations and the registry become the CLI's own, code kept. */
export function asTallyError(error: unknown): unknown {
  // Any copy's (a pack module built against its own copy of Tally throws that copy's classes).
  if (isDeclarationError(error)) return new TallyError(error.code, error.message);
  return error;
}

/** Every pack's flag values from --pack-option, checked against the flags each pack declares. */
export function packFlags(
  packOptions: readonly string[],
  registry: PackRegistry,
  byPack: PackFlagValues = new Map(),
): PackFlagValues {
  for (const option of packOptions) {
    const [name, flag, value] = parsePackOption(option);
    const pack = registry.get(name);
    const declared = pack.flags.find((candidate) => candidate.name === flag);
    if (!declared)
      throw new TallyError(
        'PACK_OPTION_UNKNOWN',
        `Pack "${name}" has no flag "${flag}". Its flags: ${pack.flags.map((candidate) => candidate.name).join(', ') || '(none)'}.`,
      );
    const flags = byPack.get(name) ?? {};
    const earlier = flags[flag];
    flags[flag] = declared.repeatable ? [...(Array.isArray(earlier) ? earlier : []), value] : value;
    byPack.set(name, flags);
  }
  return byPack;
}

/** A required flag of a served pack that no --pack-option gave. */
export function checkRequiredFlags(
  names: readonly string[],
  registry: PackRegistry,
  byPack: PackFlagValues,
): void {
  for (const name of names)
    for (const flag of registry.get(name).flags)
      if (flag.required && (byPack.get(name)?.[flag.name] ?? []).length === 0)
        throw new TallyError(
          'PACK_OPTION_MISSING',
          `Pack "${name}" needs --pack-option ${name}.${flag.name}=… (${flag.description}).`,
        );
}
