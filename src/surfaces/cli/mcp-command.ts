import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { buildFishContext } from '../../agents/fisherman/fish-context.js';
import { TallyError } from '../../core/errors.js';
import { Ledger } from '../../core/ledger/ledger.js';
import type { ToolDefinition } from '../../core/tool.js';
import { httpTools } from '../../packs/http/tools/index.js';
import { openRecordSource } from '../../packs/records/open-record-source.js';
import { listStores } from '../../packs/records/stores.js';
import { recordsTools } from '../../packs/records/tools/records-tools.js';
import { ProjectRoot } from '../../packs/workspace/project-root.js';
import { workspaceTools } from '../../packs/workspace/tools/index.js';
import type { McpPackFactory } from '../mcp/mcp-session.js';
import { prepareDataTool } from '../mcp/prepare-data-tool.js';
import { serveHttp } from '../mcp/serve-http.js';
import { serveStdio } from '../mcp/serve-stdio.js';
import { EXIT } from './exit-codes.js';
import { type FishFlags, headersFrom, loginFrom } from './fish-options.js';
import { ledgerPathFor } from './open-ledger.js';

interface McpFlags extends FishFlags {
  root: string;
  packs: string;
  transport: string;
  port: string;
  host: string;
}

const PACKS = new Set(['fs', 'http', 'records']);

export default async function mcpCommand(options: McpFlags, command: Command): Promise<number> {
  const root = resolve(options.root);
  const packs = options.packs
    .split(',')
    .map((pack) => pack.trim())
    .filter(Boolean);
  const unknown = packs.filter((pack) => !PACKS.has(pack));
  if (unknown.length > 0)
    throw new TallyError(
      'PACK_UNKNOWN',
      `Unknown pack(s): ${unknown.join(', ')}. Available: ${[...PACKS].join(', ')}.`,
    );
  if (options.transport !== 'stdio' && options.transport !== 'http')
    throw new TallyError(
      'TRANSPORT_UNKNOWN',
      `--transport must be stdio or http, not "${options.transport}".`,
    );
  // The ledger defaults to the project's own state folder, which the tools may never touch.
  const ledgerPath = ledgerPathFor(command, root);
  await ProjectRoot.open(root); // fail fast on a missing root
  const ledger = Ledger.open(ledgerPath);
  const headers = headersFrom(options.header);
  const build: McpPackFactory = async () => {
    const tools: ToolDefinition[] = [];
    let projectRoot: ProjectRoot | undefined;
    if (packs.includes('fs')) {
      projectRoot = await ProjectRoot.open(root, { protect: [dirname(ledgerPath)] });
      tools.push(...workspaceTools({ root: projectRoot }));
    }
    if (packs.includes('records')) {
      // Security: the records tools only ever dump paths a query can return (checkCatPaths).
      const source = openRecordSource(root, listStores(root));
      tools.push(...recordsTools({ root, source }));
    }
    if (packs.includes('http')) {
      const fish = {
        captures: options.captures ?? [],
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(options.scope ? { scope: options.scope } : {}),
        ...loginFrom(options.login),
        ...(headers ? { headers } : {}),
      };
      tools.push(...httpTools(await buildFishContext(fish)), prepareDataTool(ledger, fish));
    }
    return { tools, ...(projectRoot ? { projectRoot } : {}) };
  };
  const failOpenLog = join(dirname(ledgerPath), 'fail-open.jsonl');
  const meta = { root, packs };
  if (options.transport === 'stdio') {
    await serveStdio({ ledger, failOpenLog, build, meta });
    ledger.close();
    return EXIT.ok;
  }
  const server = await serveHttp({
    ledger,
    failOpenLog,
    build,
    meta,
    port: Number(options.port),
    host: options.host,
  });
  process.stderr.write(`tally MCP server (streamable HTTP) on ${server.url} — root ${root}\n`);
  await new Promise<void>((resolvePromise) => {
    process.once('SIGINT', resolvePromise);
    process.once('SIGTERM', resolvePromise);
  });
  await server.close();
  ledger.close();
  return EXIT.ok;
}
