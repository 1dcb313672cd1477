import { DECLARATION_ERROR } from './errors.js';
import { registerFailOpenReasons } from './fail-open-reasons.js';
import { isPack, type Pack, type PackContext, type PackSession } from './pack.js';
import type { ToolDefinition } from './tool.js';

export class PackRegistryError extends Error {
  readonly [DECLARATION_ERROR] = true;

  constructor(
    readonly code: 'PACK_UNKNOWN' | 'PACK_INVALID' | 'PACK_TAKEN' | 'PACK_TOOL_CLASH' | 'PACK_OPTION_UNKNOWN',
    message: string,
  ) {
    super(message);
    this.name = 'PackRegistryError';
  }
}

/** The packs a surface can serve, by name; registering a pack opens core's vocabulary to its reasons. */
export interface PackRegistry {
  register(pack: Pack): void;
  get(name: string): Pack;
  has(name: string): boolean;
  names(): string[];
  /**
   * One session of several packs: their tools together (a tool name served twice is refused),
   * their secrets, and one close for all of them.
   */
  session(names: readonly string[], context: (pack: Pack) => PackContext): Promise<PackSession>;
}

export function createPackRegistry(packs: readonly Pack[] = []): PackRegistry {
  const byName = new Map<string, Pack>();
  const registry: PackRegistry = {
    register(pack) {
      if (!isPack(pack))
        throw new PackRegistryError(
          'PACK_INVALID',
          'Not a pack: build it with definePack({ name, tools, … }).',
        );
      const existing = byName.get(pack.name);
      if (existing === pack) return;
      if (existing)
        throw new PackRegistryError('PACK_TAKEN', `A pack named "${pack.name}" is already registered.`);
      registerFailOpenReasons(pack.name, pack.failOpenReasons);
      byName.set(pack.name, pack);
    },
    get(name) {
      const pack = byName.get(name);
      if (!pack)
        throw new PackRegistryError(
          'PACK_UNKNOWN',
          `Unknown pack: ${name}. Available: ${[...byName.keys()].join(', ') || '(none)'}.`,
        );
      return pack;
    },
    has: (name) => byName.has(name),
    names: () => [...byName.keys()],
    async session(names, context) {
      const sessions: PackSession[] = [];
      const owner = new Map<string, string>();
      const closeAll = async () => {
        for (const session of sessions.reverse()) await session.close?.();
      };
      try {
        for (const name of names) {
          const pack = registry.get(name);
          const session = await pack.session(context(pack));
          sessions.push(session);
          for (const tool of session.tools) {
            const first = owner.get(tool.name);
            if (first)
              throw new PackRegistryError(
                'PACK_TOOL_CLASH',
                `Packs "${first}" and "${name}" both serve a tool named "${tool.name}": serve one of them, or rename the tool.`,
              );
            owner.set(tool.name, name);
          }
        }
      } catch (error) {
        await closeAll();
        throw error;
      }
      const tools: ToolDefinition[] = sessions.flatMap((session) => session.tools);
      const secrets = sessions.flatMap((session) => session.knownSecrets ?? []);
      const provides = Object.assign({}, ...sessions.map((session) => session.provides ?? {}));
      return {
        tools,
        ...(secrets.length > 0 ? { knownSecrets: secrets } : {}),
        provides,
        close: closeAll,
      };
    },
  };
  for (const pack of packs) registry.register(pack);
  return registry;
}
