import { buildFishContext, type FishContextOptions } from '../../agents/fisherman/fish-context.js';
import { TallyError } from '../../core/errors.js';
import { definePack, type Pack, type PackContext } from '../../core/pack.js';
import { createPackRegistry, type PackRegistry } from '../../core/pack-registry.js';
import { browserPack } from '../../packs/browser/browser-pack.js';
import { httpTools } from '../../packs/http/tools/index.js';
import { workspacePack } from '../../packs/workspace/workspace-pack.js';
import { headersFrom, loginFrom } from '../cli/fish-options.js';
import { prepareDataTool } from './prepare-data-tool.js';
import { refreshingRecordsTools } from './refreshing-records-tools.js';

/**
 * The records pack as a server serves it: the index kept fresh by a watcher and, with the
 * session's ledger, the scout (an agent) as a tool — which is why it is declared here, above the
 * agents, and not in packs/records.
 */
export const servedRecordsPack = definePack({
  name: 'records',
  description: 'Query, dump and recall the project records (FTS5 index kept fresh), and the scout.',
  tools: (context) => {
    const records = refreshingRecordsTools(context.root, context.ledger);
    return { tools: records.tools, close: records.close };
  },
});

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const one = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.at(-1) : value;

/** The pack's flags as `tally fish` reads the same ones. */
function fishOptions(context: PackContext): FishContextOptions {
  const flags = context.flags;
  const baseUrl = one(flags['base-url']);
  const scope = one(flags.scope);
  const headers = headersFrom(list(flags.header));
  return {
    captures: list(flags.captures),
    ...(baseUrl ? { baseUrl } : {}),
    ...(scope ? { scope } : {}),
    ...loginFrom(one(flags.login)),
    ...(headers ? { headers } : {}),
  };
}

/**
 * The HTTP pack as `tally mcp` serves it: the tools over a live session built from captures,
 * plus `prepare_data` (Fisherman, an agent, as a tool).
 */
export const servedHttpPack = definePack({
  name: 'http',
  description: 'Endpoint specs, requests on the locked origin and lookups, learned from captures.',
  flags: [
    { name: 'captures', description: 'HAR files or explorbot directories', repeatable: true },
    { name: 'base-url', description: 'API base URL' },
    { name: 'scope', description: 'default scope' },
    { name: 'login', description: 'login recipe file or "demo"' },
    { name: 'header', description: 'extra request header "Name: value"', repeatable: true },
  ],
  // `tally mcp` serves the http pack from captures only; say so before any session starts.
  prepare: (context) => {
    headersFrom(list(context.flags.header)); // a malformed --header fails before serving
    if (list(context.flags.captures).length === 0)
      throw new TallyError(
        'FISHERMAN_NEEDS_INPUT',
        'The http pack needs to know the API: pass --captures with a HAR file or an explorbot output/requests directory recorded while using the app (and --base-url when the captures hold more than one API origin). `tally mcp` takes no OpenAPI documents; `tally fish --spec` does.',
      );
  },
  tools: async (context) => {
    const fish = fishOptions(context);
    // With the ledger: a cookie the app rotates mid-session is scrubbed like the login's.
    const fishContext = await buildFishContext({
      ...fish,
      ...(context.ledger ? { ledger: context.ledger } : {}),
    });
    const tools = [
      ...httpTools(fishContext),
      ...(context.ledger ? [prepareDataTool(context.ledger, fish)] : []),
    ];
    // The same known-secret scope as `tally fish`: recipe fields, --header values, the
    // session's cookies and CSRF token, capture auth headers never reach the ledger in clear.
    return { tools, knownSecrets: fishContext.knownSecrets };
  },
});

/**
 * The packs every `tally mcp` can serve. A pack written inside this repository is served by
 * adding it here (one line); a pack written elsewhere is loaded with `--pack-module`.
 */
export const BUILTIN_PACKS: readonly Pack[] = [workspacePack, servedRecordsPack, servedHttpPack, browserPack];

export function builtinPackRegistry(): PackRegistry {
  return createPackRegistry(BUILTIN_PACKS);
}
