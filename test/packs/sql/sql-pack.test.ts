// Acceptance 1 of issue 20: a pack written outside Tally's source (test/fixtures/packs/sql) is
// served by the library, by an agent and by `tally mcp --packs sql` without editing any file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import {
  agentTool,
  createFailOpen,
  createPackRegistry,
  defineAgent,
  definePack,
  FailOpenReasonTakenError,
  invokeTool,
  Ledger,
  type PackContext,
  runAgent,
  type ToolDefinition,
} from '../../../src/index.js';
import { createMcpServer } from '../../../src/surfaces/mcp/create-mcp-server.js';
import { callTool, scriptedModel } from '../../../src/testing/index.js';
import { SHOPKEEPER_INSTRUCTIONS } from '../../fixtures/packs/sql/sql-agent.js';
import { sqlPack } from '../../fixtures/packs/sql/sql-pack.js';
import { tempDir, tempLedger } from '../../helpers.js';

const repo = join(import.meta.dirname, '..', '..', '..');

function tempDb(): string {
  const path = join(tempDir(), 'shop.db');
  const db = openSqlite(path);
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  db.prepare('INSERT INTO items (id, name) VALUES (?, ?)').run(1, 'existing');
  db.close();
  return path;
}

function context(db: string, log = join(tempDir(), 'fail-open.jsonl')): PackContext {
  return { root: tempDir(), flags: { db }, protect: [], failOpen: createFailOpen({ logPath: log }) };
}

describe('the SQL fixture pack from the library', () => {
  it('serves sql_exec and sql_query whose effects are rows keyed table/pk, read back by the database', async () => {
    const ledger = tempLedger();
    const registry = createPackRegistry([sqlPack]);
    const session = await registry.session(['sql'], () => context(tempDb()));
    expect(session.tools.map((tool) => tool.name)).toEqual(['sql_query', 'sql_exec']);
    const run = ledger.startRun({ agent: 'lib', task: 'sql' });
    const invoke = { recorder: run, failOpen: () => {} };
    const tool = (name: string) =>
      session.tools.find((candidate) => candidate.name === name) as ToolDefinition;
    const insert = await invokeTool(
      tool('sql_exec'),
      { sql: "INSERT INTO items (id, name) VALUES (2, 'Lamp')" },
      invoke,
    );
    expect(insert.evidence?.effects).toEqual([
      expect.objectContaining({ kind: 'created', space: 'sql', key: 'items/2', id: '2', type: 'item' }),
    ]);
    const update = await invokeTool(
      tool('sql_exec'),
      { sql: "UPDATE items SET name = 'Big lamp' WHERE name LIKE '%amp'" },
      invoke,
    );
    // The rows come from the database's RETURNING, not from the statement's words.
    expect(update.evidence?.effects?.map((effect) => [effect.kind, effect.key])).toEqual([
      ['updated', 'items/2'],
    ]);
    const read = await invokeTool(tool('sql_query'), { sql: 'SELECT * FROM items' }, invoke);
    expect(read.evidence?.effects?.map((effect) => [effect.kind, effect.key])).toEqual([
      ['read', 'items/1'],
      ['read', 'items/2'],
    ]);
    const bad = await invokeTool(tool('sql_exec'), { sql: 'DELETE FROM nowhere' }, invoke);
    expect(bad.outcome).toBe('error');
    expect(bad.evidence?.effects ?? []).toEqual([]);
    await session.close?.();
  });

  it("opens core's fail-open vocabulary to the pack's declared reasons, and refuses a reason core owns", async () => {
    const log = join(tempDir(), 'fail-open.jsonl');
    createPackRegistry([sqlPack]);
    createFailOpen({ logPath: log })('sql', 'sql-schema-unreadable');
    createFailOpen({ logPath: log })('sql', 'sql-made-up');
    const whys = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).why);
    expect(whys).toEqual(['sql-schema-unreadable', 'unrecognized:sql-made-up']);
    const thief = definePack({
      name: 'thief',
      description: 'x',
      tools: () => [],
      failOpenReasons: ['ledger-unavailable'],
    });
    expect(() => createPackRegistry([thief])).toThrow(FailOpenReasonTakenError);
    expect(() => createPackRegistry([thief])).toThrow(
      /"ledger-unavailable" of pack "thief" is already one of core's/,
    );
    expect(() => definePack({ name: 'Bad Name', description: 'x', tools: () => [] })).toThrow(/lower-case/);
  });

  it('refuses two packs serving the same tool name in one session, naming both', async () => {
    const twin = definePack({ name: 'sql-twin', description: 'x', tools: (ctx) => sqlPack.session(ctx) });
    const registry = createPackRegistry([sqlPack, twin]);
    const db = tempDb();
    await expect(registry.session(['sql', 'sql-twin'], () => context(db))).rejects.toThrow(
      /Packs "sql" and "sql-twin" both serve a tool named "sql_query"/,
    );
  });
});

describe('the SQL fixture pack in an agent', () => {
  it("verifies a claimed row against the run's effects and drops one the run only read", async () => {
    const ledger = tempLedger();
    const session = await sqlPack.session(context(tempDb()));
    const agent = defineAgent({
      name: 'shopkeeper',
      instructions: 'Change rows with sql_exec, read with sql_query, then call finish.',
      tools: session.tools,
    });
    const model = scriptedModel([
      callTool('sql_exec', { sql: "INSERT INTO items (id, name) VALUES (7, 'Chair')" }),
      callTool('sql_query', { sql: 'SELECT * FROM items WHERE id = 1' }),
      callTool('finish', {
        summary: 'Added the chair and the existing item.',
        claims: [
          { target: 'item 7', effect: 'created', title: 'Chair' },
          { target: 'items/1', effect: 'created' },
        ],
      }),
    ]);
    const result = await runAgent(agent, 'Add a chair as item 7', { ledger, model });
    model.assertComplete();
    expect(result.verified.map((item) => [item.resource, item.effect, item.title])).toEqual([
      ['items/7', 'created', 'Chair'],
    ]);
    expect(result.dropped).toEqual([
      expect.objectContaining({ why: expect.stringMatching(/only read in this run/) }),
    ]);
    expect(result.status).toBe('partial');
    await session.close?.();
  });
});

describe('the SQL fixture pack through `tally mcp --packs sql --pack-module`', () => {
  it("lists and calls the pack's tools with the SDK client; every call is in the ledger with its effects", async () => {
    const root = tempDir();
    const db = tempDb();
    const ledgerPath = join(tempDir(), 'ledger.db');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        join(repo, 'bin', 'tally.js'),
        'mcp',
        '--root',
        root,
        '--ledger',
        ledgerPath,
        '--packs',
        'sql',
        '--pack-module',
        join(repo, 'test', 'fixtures', 'packs', 'sql', 'sql-pack.ts'),
        '--pack-option',
        `sql.db=${db}`,
      ],
      cwd: repo,
      env: { ...process.env, TALLY_LEDGER: '' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tally-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['sql_query', 'sql_exec']);
    expect(tools.find((tool) => tool.name === 'sql_query')?.annotations?.readOnlyHint).toBe(true);
    const made = await client.callTool({
      name: 'sql_exec',
      arguments: { sql: 'INSERT INTO items (id, name) VALUES (?, ?)', params: [42, 'Desk'] },
    });
    expect(made.isError).toBeFalsy();
    expect(made.structuredContent).toMatchObject({ ok: true, changed: 1, keys: ['items/42'] });
    const failed = await client.callTool({ name: 'sql_exec', arguments: { sql: 'DELETE FROM nowhere' } });
    expect(failed.isError).toBe(true);
    await client.close();

    const ledger = Ledger.open(ledgerPath, { readonly: true });
    try {
      const [run] = ledger.listRuns({ agent: 'mcp' });
      const calls = ledger.entries(run?.id as string).filter((entry) => entry.kind === 'tool_call');
      expect(calls.map((entry) => [entry.name, entry.outcome])).toEqual([
        ['sql_exec', 'ok'],
        ['sql_exec', 'error'],
      ]);
      expect((calls[0]?.data.evidence as { effects: unknown[] } | undefined)?.effects).toEqual([
        expect.objectContaining({ kind: 'created', key: 'items/42', type: 'item' }),
      ]);
    } finally {
      ledger.close();
    }
    // The row is really there: the pack changed the user's database, not a copy.
    const check = openSqlite(db, { readonly: true });
    expect(check.prepare('SELECT name FROM items WHERE id = 42').get()).toEqual({ name: 'Desk' });
    check.close();
  });

  it('refuses a flag the pack did not declare, and a required one left out, before serving (exit 2)', async () => {
    const { runTally } = await import('../../helpers.js');
    const module = join(repo, 'test', 'fixtures', 'packs', 'sql', 'sql-pack.ts');
    const env = { NODE_OPTIONS: '--import tsx' };
    const base = [
      'mcp',
      '--root',
      tempDir(),
      '--ledger',
      join(tempDir(), 'l.db'),
      '--packs',
      'sql',
      '--pack-module',
      module,
    ];
    const unknown = await runTally([...base, '--pack-option', 'sql.dsn=x'], { env, cwd: repo });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Pack "sql" has no flag "dsn". Its flags: db.');
    const missing = await runTally(base, { env, cwd: repo });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Pack "sql" needs --pack-option sql.db=…');
    const malformed = await runTally([...base, '--pack-option', 'db=x'], { env, cwd: repo });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('is not PACK.FLAG=VALUE');
  });

  it('names the packs it knows and how to load one when --packs names an unknown pack', async () => {
    const { runTally } = await import('../../helpers.js');
    const run = await runTally(['mcp', '--root', tempDir(), '--packs', 'sql']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown pack(s): sql. Available: fs, records, http, browser');
    expect(run.stderr).toContain('--pack-module ./my-pack.js');
  });
});

describe('an agent over the SQL pack, served as a tool', () => {
  it("runs as its own run linked to the MCP session, and its verified rows are the call's effects", async () => {
    const ledger = tempLedger();
    const session = await sqlPack.session(context(tempDb()));
    const agent = defineAgent({
      name: 'shopkeeper',
      instructions: SHOPKEEPER_INSTRUCTIONS,
      tools: session.tools,
    });
    const model = scriptedModel([
      callTool('sql_exec', { sql: "INSERT INTO items (id, name) VALUES (9, 'Stool')" }),
      callTool('finish', { summary: 'Added the stool.', claims: [{ target: 'items/9', effect: 'created' }] }),
    ]);
    const mcp = createMcpServer({ tools: [agentTool(agent, { ledger, model })], ledger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'tally-test', version: '1.0.0' });
    await client.connect(clientSide);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['run_shopkeeper']);
    const answer = await client.callTool({
      name: 'run_shopkeeper',
      arguments: { task: 'Add a stool as item 9' },
    });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({
      ok: true,
      status: 'success',
      verified: [{ resource: 'items/9' }],
    });
    await client.close();
    mcp.end();
    const sub = ledger.listRuns({ agent: 'shopkeeper' })[0];
    const parent = ledger.listRuns({ agent: 'mcp' })[0];
    expect(sub?.meta.parentRunId).toBe(parent?.id);
    const call = ledger.entries(parent?.id as string).find((entry) => entry.kind === 'tool_call');
    expect((call?.data.evidence as { effects?: unknown[] } | undefined)?.effects).toEqual([
      expect.objectContaining({ kind: 'created', space: 'sql', key: 'items/9' }),
    ]);
    await session.close?.();
  });

  it('is reachable from `tally mcp --pack-module` by its name, and says how to give it a model', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        join(repo, 'bin', 'tally.js'),
        'mcp',
        '--root',
        tempDir(),
        '--ledger',
        join(tempDir(), 'ledger.db'),
        '--packs',
        'shopkeeper',
        '--pack-module',
        join(repo, 'test', 'fixtures', 'packs', 'sql', 'sql-agent.ts'),
        '--pack-option',
        `shopkeeper.db=${tempDb()}`,
      ],
      cwd: repo,
      env: { ...process.env, TALLY_LEDGER: '', TALLY_MODEL: '' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tally-test', version: '1.0.0' });
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['run_shopkeeper']);
    const answer = await client.callTool({ name: 'run_shopkeeper', arguments: { task: 'Add a stool' } });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toContain('set TALLY_MODEL');
    await client.close();
  });
});

describe('the built-in packs, declared with definePack', () => {
  it('are the registry tally mcp serves from, browser included, with their tools per session', async () => {
    const { builtinPackRegistry } = await import('../../../src/surfaces/mcp/served-packs.js');
    const { ProjectRoot } = await import('../../../src/packs/workspace/project-root.js');
    const registry = builtinPackRegistry();
    expect(registry.names()).toEqual(['fs', 'records', 'http', 'browser']);
    const browser = await registry.session(['browser'], () => context(tempDb()));
    expect(browser.tools.map((tool) => [tool.name, tool.annotations.readOnly])).toEqual([
      ['browser_console', true],
    ]);
    const fs = await registry.session(['fs'], () => context(tempDb()));
    expect(fs.tools.map((tool) => tool.name)).toContain('fs_write');
    // The MCP surface narrows this root to a client's roots.
    expect(fs.provides?.projectRoot).toBeInstanceOf(ProjectRoot);
  });
});
