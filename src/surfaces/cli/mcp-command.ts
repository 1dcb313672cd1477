import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { TallyError } from '../../core/errors.js';
import { createFailOpen } from '../../core/fail-open.js';
import { isPostgresUrl } from '../../core/ledger/postgres-url.js';
import { ledgerStateDir } from '../../core/ledger/resolve-ledger-path.js';
import type { Pack, PackContext } from '../../core/pack.js';
import { ProjectRoot } from '../../packs/workspace/project-root.js';
import { isLoopbackHostname } from '../mcp/check-http-access.js';
import type { McpPackFactory } from '../mcp/mcp-session.js';
import { serveHttp } from '../mcp/serve-http.js';
import { serveStdio } from '../mcp/serve-stdio.js';
import { builtinPackRegistry } from '../mcp/served-packs.js';
import { STOP_SIGNALS } from '../stop-signals.js';
import { EXIT } from './exit-codes.js';
import type { FishFlags } from './fish-options.js';
import { ledgerPathFor, openLedgerAt } from './open-ledger.js';
import { asTallyError, checkRequiredFlags, loadPackModule, packFlags } from './pack-modules.js';
// Registers unhandled-rejection and roots-unavailable.
import '../mcp/mcp-fail-open-reasons.js';

interface McpFlags extends FishFlags {
  root: string;
  packs: string;
  transport: string;
  port: string;
  host: string;
  authToken?: string;
  allowOrigin?: string[];
  sessionIdleMs?: string;
  maxBodyBytes?: string;
  rootsTimeoutMs?: string;
  packModule?: string[];
  packOption?: string[];
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new TallyError('MCP_OPTION_INVALID', `${flag} must be a positive whole number, not "${value}".`);
  return number;
}

/** Resolves on the first SIGINT/SIGTERM/SIGHUP with a sentence for the runs it ends. */
function stopSignal(): Promise<string> {
  return new Promise((resolvePromise) => {
    for (const signal of STOP_SIGNALS)
      process.once(signal, () => resolvePromise(`the server was stopped (${signal})`));
  });
}

/**
 * A long-lived server outlives anything one request does: a promise rejected with nobody
 * waiting (a client request the SDK timed out, a late transport write) is logged as a
 * fail-open, never Node's default exit, which would drop every other session with it.
 */
export function keepServingOnUnhandledRejection(failOpenLog: string): void {
  const failOpen = createFailOpen({ logPath: failOpenLog });
  process.on('unhandledRejection', (reason) => {
    failOpen('mcp-server', 'unhandled-rejection');
    process.stderr.write(
      `tally mcp: a rejected promise nobody handled (${reason instanceof Error ? reason.message : String(reason)}); logged in ${failOpenLog}, serving on.\n`,
    );
  });
}

/** A real path where one exists (the ledger folder and the root are compared as the disk sees them). */
function realOrSame(path: string): string {
  try {
    return realpathSync.native(path);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    return resolve(path);
  }
}

/**
 * Security: what the tools must never touch so an agent cannot rewrite the ledger that judges
 * it — the ledger's folder, or, when the ledger sits in the served root itself
 * (`--ledger ./ledger.db --root .`), the ledger's own files (protecting the folder would
 * refuse every path in the project).
 */
export function ledgerProtection(ledgerPath: string, root: string): string[] {
  if (isPostgresUrl(ledgerPath)) return []; // a database: no file under the root to guard
  const folder = dirname(resolve(ledgerPath));
  if (realOrSame(folder) !== realOrSame(root)) return [folder];
  const file = resolve(ledgerPath);
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`, join(folder, 'fail-open.jsonl')];
}

export default async function mcpCommand(options: McpFlags, command: Command): Promise<number> {
  try {
    return await serveMcp(options, command);
  } catch (error) {
    throw asTallyError(error);
  }
}

async function serveMcp(options: McpFlags, command: Command): Promise<number> {
  const root = resolve(options.root);
  const packs = options.packs
    .split(',')
    .map((pack) => pack.trim())
    .filter(Boolean);
  const registry = builtinPackRegistry();
  for (const path of options.packModule ?? [])
    for (const pack of await loadPackModule(path)) registry.register(pack);
  const unknown = packs.filter((pack) => !registry.has(pack));
  if (unknown.length > 0)
    throw new TallyError(
      'PACK_UNKNOWN',
      `Unknown pack(s): ${unknown.join(', ')}. Available: ${registry.names().join(', ')}${(options.packModule ?? []).length === 0 ? ' (load your own with --pack-module ./my-pack.js)' : ''}.`,
    );
  // The built-in http pack's flags are options of their own (shared with `tally fish`).
  const httpFlags = {
    captures: options.captures ?? [],
    'base-url': options.baseUrl,
    scope: options.scope,
    login: options.login,
    header: options.header ?? [],
  };
  const flagsByPack = packFlags(options.packOption ?? [], registry, new Map([['http', httpFlags]]));
  checkRequiredFlags(packs, registry, flagsByPack);
  if (options.transport !== 'stdio' && options.transport !== 'http')
    throw new TallyError(
      'TRANSPORT_UNKNOWN',
      `--transport must be stdio or http, not "${options.transport}".`,
    );
  const authToken = options.authToken ?? (process.env.TALLY_MCP_TOKEN || undefined);
  const idleFlag = options.sessionIdleMs ?? process.env.TALLY_MCP_SESSION_IDLE_MS;
  const sessionIdleMs = positiveInteger('--session-idle-ms', idleFlag);
  const maxBodyBytes = positiveInteger('--max-body-bytes', options.maxBodyBytes);
  const rootsTimeoutMs = positiveInteger(
    '--roots-timeout-ms',
    options.rootsTimeoutMs ?? process.env.TALLY_MCP_ROOTS_TIMEOUT_MS,
  );
  if (options.transport === 'http' && !isLoopbackHostname(options.host) && !authToken)
    throw new TallyError(
      'MCP_TOKEN_REQUIRED',
      `--host ${options.host} would serve the tools to every machine that can reach this one, so a token is required. Pass --auth-token <secret> (or set TALLY_MCP_TOKEN), or listen on 127.0.0.1.`,
    );
  // The ledger defaults to the project's own state folder, which the tools may never touch.
  const ledgerPath = ledgerPathFor(command, root);
  await ProjectRoot.open(root, { protect: ledgerProtection(ledgerPath, root) }); // fail fast on a missing root
  const ledger = await openLedgerAt(ledgerPath); // listed for `tally runs` across projects
  const failOpenLog = join(ledgerStateDir(ledgerPath, root), 'fail-open.jsonl');
  const protect = ledgerProtection(ledgerPath, root);
  const logFailOpen = createFailOpen({ logPath: failOpenLog });
  const contextOf = (pack: Pack): PackContext => {
    // Closed per pack: a reason the pack did not declare is stored as unrecognized.
    const declared = new Set(pack.failOpenReasons);
    return {
      root,
      flags: flagsByPack.get(pack.name) ?? {},
      ledger,
      protect,
      failOpen: (component, why) =>
        logFailOpen(component, declared.has(why) ? why : `undeclared-by-${pack.name}:${why}`),
    };
  };
  try {
    for (const name of packs) await registry.get(name).prepare?.(contextOf(registry.get(name)));
  } catch (error) {
    // Awaited: a PostgreSQL ledger commits over the network; the pack's error is what is reported.
    await Promise.resolve(ledger.close()).catch(() => undefined);
    throw error;
  }
  const build: McpPackFactory = async () => {
    const session = await registry.session(packs, contextOf);
    const projectRoot = session.provides?.projectRoot;
    return {
      tools: session.tools,
      ...(projectRoot instanceof ProjectRoot ? { projectRoot } : {}),
      ...(session.close ? { close: session.close } : {}),
      ...(session.knownSecrets ? { knownSecrets: session.knownSecrets } : {}),
    };
  };
  const meta = { root, packs };
  const stopped = stopSignal();
  keepServingOnUnhandledRejection(failOpenLog);
  const sessionOptions = { ledger, failOpenLog, build, meta, ...(rootsTimeoutMs ? { rootsTimeoutMs } : {}) };
  if (options.transport === 'stdio') {
    await serveStdio({ ...sessionOptions, stopped });
    await ledger.close();
    return EXIT.ok;
  }
  if (!isLoopbackHostname(options.host) && authToken)
    process.stderr.write(
      `tally: WARNING: --host ${options.host} serves the tools to every machine that can reach this one. Requests need the bearer token; prefer 127.0.0.1 behind a tunnel.\n`,
    );
  const server = await serveHttp({
    ...sessionOptions,
    port: Number(options.port),
    host: options.host,
    ...(authToken ? { authToken } : {}),
    allowOrigins: options.allowOrigin ?? [],
    ...(sessionIdleMs ? { sessionIdleMs } : {}),
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
  });
  process.stderr.write(`tally MCP server (streamable HTTP) on ${server.url} — root ${root}\n`);
  const why = await stopped;
  await server.close(why);
  await ledger.close();
  return EXIT.ok;
}
