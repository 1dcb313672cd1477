import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { createMcpServer } from '../../../src/surfaces/mcp/create-mcp-server.js';
import { tempDir } from '../../helpers.js';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'tally.js');
const { version } = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'),
) as { version: string };
const exec = promisify(execFile);

async function connect(root: string, roots?: string[]) {
  const client = new Client(
    { name: 'tally-test', version: '1.0.0' },
    { capabilities: roots ? { roots: { listChanged: true } } : {} },
  );
  if (roots)
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((path) => ({ uri: pathToFileURL(path).href, name: path })),
    }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--root', root],
    env: { ...process.env, TALLY_LEDGER: '' } as Record<string, string>,
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

const text = (result: unknown) =>
  ((result as { content: { text: string }[] }).content[0] as { text: string }).text;

describe('tally mcp over stdio, with the official SDK client', () => {
  it('lists every tool with schemas and annotations, calls each, and records the session in the ledger', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'README.md'), '# hello\nTODO: write docs\n');
    const client = await connect(root);
    // The initialize answer names the installed package's version, as `tally --version` does.
    expect(client.getServerVersion()).toEqual({ name: 'tally', version });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'fs_delete',
      'fs_edit',
      'fs_glob',
      'fs_grep',
      'fs_list',
      'fs_move',
      'fs_read',
      'fs_tree',
      'fs_write',
    ]);
    const read = tools.find((tool) => tool.name === 'fs_read');
    expect(read?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(read?.inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
    expect(tools.find((tool) => tool.name === 'fs_write')?.outputSchema).toMatchObject({ type: 'object' });
    expect(tools.find((tool) => tool.name === 'fs_delete')?.annotations?.destructiveHint).toBe(true);

    const calls: [string, Record<string, unknown>][] = [
      ['fs_write', { path: 'src/a.ts', content: 'export const a = 1;\n' }],
      ['fs_read', { path: 'src/a.ts' }],
      ['fs_edit', { path: 'src/a.ts', oldString: '1', newString: '2' }],
      ['fs_list', { path: 'src' }],
      ['fs_tree', {}],
      ['fs_glob', { pattern: '**/*.ts' }],
      ['fs_grep', { pattern: 'TODO' }],
      ['fs_move', { from: 'src/a.ts', to: 'src/b.ts' }],
      ['fs_delete', { path: 'src/b.ts' }],
    ];
    const results: Record<string, Record<string, unknown>> = {};
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
      results[name] = result.structuredContent as Record<string, unknown>;
    }
    expect(results.fs_write).toMatchObject({ ok: true, path: 'src/a.ts', bytes: 20, created: true });
    expect(results.fs_edit?.diff).toContain('+export const a = 2;');
    expect(results.fs_glob?.paths).toEqual(['src/a.ts']);
    expect(results.fs_grep?.matches).toEqual([{ path: 'README.md', line: 2, text: 'TODO: write docs' }]);
    expect(existsSync(join(root, 'src', 'b.ts'))).toBe(false);

    const refused = await client.callTool({ name: 'fs_read', arguments: { path: '../../etc/passwd' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /^PATH_OUTSIDE_PROJECT: Path "\.\.\/\.\.\/etc\/passwd" is outside the project \(traversal\)/,
    );
    expect(refused.structuredContent).toMatchObject({
      ok: false,
      error: { code: 'PATH_OUTSIDE_PROJECT', details: { reason: 'traversal' } },
    });

    const ledgerAttack = await client.callTool({
      name: 'fs_write',
      arguments: { path: '.tally/ledger.db', content: 'gone' },
    });
    // fs_write declares an output schema, so its errors carry the code in the text only.
    expect(ledgerAttack.isError).toBe(true);
    expect(text(ledgerAttack)).toMatch(/^PATH_OUTSIDE_PROJECT: .*\(protected-path\)/);
    await client.close();

    // One run per session, every call in it, and an end.
    // The server writes the session's end as it exits; wait for it (not a fixed sleep).
    const ledger = Ledger.open(join(root, '.tally', 'ledger.db'));
    for (let waited = 0; waited < 10_000 && !ledger.listRuns()[0]?.endingReason; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [run] = ledger.listRuns();
    expect(run).toMatchObject({ agent: 'mcp', toolCalls: 11, endingReason: 'finished' });
    const entries = ledger.entries(run?.id as string);
    expect(
      entries
        .filter((entry) => entry.kind === 'tool_call' && entry.outcome === 'rejected')
        .map((entry) => (entry.data.error as { details: { reason: string } }).details.reason),
    ).toEqual(['traversal', 'protected-path']);
    ledger.close();
  });

  it('createMcpServer (the library) reports the package version too', async () => {
    const ledger = Ledger.open(join(tempDir(), '.tally', 'ledger.db'));
    const session = createMcpServer({ tools: [], ledger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const client = new Client({ name: 'tally-test', version: '1.0.0' });
    await client.connect(clientSide);
    expect(client.getServerVersion()).toEqual({ name: 'tally', version });
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    await client.close();
    session.end();
    ledger.close();
  });

  it('serves the records pack: query, one all-or-nothing cat batch, recall', async () => {
    const { corpus } = await import('../../packs/records/records-fixture.js');
    const root = corpus();
    const mcp = new Client({ name: 'records-test', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--root', root, '--packs', 'records'],
        env: { ...process.env, TALLY_LEDGER: '' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toEqual([
      'records_query',
      'records_cat',
      'records_recall',
      'scout',
    ]);
    const found = await mcp.callTool({ name: 'records_query', arguments: { keyword: 'credentials' } });
    expect(
      (found.structuredContent as { records: { path: string }[] }).records.map((record) => record.path),
    ).toEqual(['references/procedures/rotate-database-credentials.md']);
    const cat = await mcp.callTool({
      name: 'records_cat',
      arguments: { paths: ['references/procedures/rotate-database-credentials.md'] },
    });
    expect(JSON.stringify(cat.structuredContent)).toContain('ALTER ROLE app_v2 LOGIN');
    const refused = await mcp.callTool({
      name: 'records_cat',
      arguments: { paths: ['references/procedures/rotate-database-credentials.md', '../../etc/passwd'] },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^CAT_REFUSED: records_cat refused/);
    expect(text(refused)).not.toContain('--cat');
    await mcp.close();
  });

  it('client roots narrow access inside --root and can never widen it', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'allowed'));
    mkdirSync(join(root, 'other'));
    writeFileSync(join(root, 'other', 'x.txt'), 'x');
    const outside = tempDir();
    const client = await connect(root, [join(root, 'allowed'), outside]);
    const inAllowed = await client.callTool({
      name: 'fs_write',
      arguments: { path: 'allowed/ok.txt', content: 'ok' },
    });
    expect(inAllowed.isError).toBeFalsy();
    const inOther = await client.callTool({ name: 'fs_read', arguments: { path: 'other/x.txt' } });
    expect(inOther.structuredContent).toMatchObject({
      error: { code: 'PATH_OUTSIDE_PROJECT', details: { reason: 'outside-client-roots' } },
    });
    const widened = await client.callTool({
      name: 'fs_write',
      arguments: { path: join(outside, 'planted.txt'), content: 'no' },
    });
    expect(text(widened)).toMatch(/^PATH_OUTSIDE_PROJECT: .*\(absolute-outside\)/);
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
    await client.close();
  });

  it('the MCP Inspector CLI lists the tools and calls fs_write', async () => {
    const root = tempDir();
    const inspector = join(
      import.meta.dirname,
      '..',
      '..',
      '..',
      'node_modules',
      '.bin',
      'mcp-inspector-cli',
    );
    // The Inspector CLI probes "../package.json" against its working directory; run it one level below a package.
    const cwd = join(import.meta.dirname, '..', '..');
    const list = await exec(
      inspector,
      ['--cli', process.execPath, bin, 'mcp', '--root', root, '--method', 'tools/list'],
      { cwd, env: { ...process.env, TALLY_LEDGER: '' } },
    );
    const names = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toContain('fs_write');
    const call = await exec(
      inspector,
      [
        '--cli',
        process.execPath,
        bin,
        'mcp',
        '--root',
        root,
        '--method',
        'tools/call',
        '--tool-name',
        'fs_write',
        '--tool-arg',
        'path=hello.txt',
        '--tool-arg',
        'content=hi from the inspector',
      ],
      { cwd, env: { ...process.env, TALLY_LEDGER: '' } },
    );
    expect(JSON.parse(call.stdout)).toMatchObject({
      structuredContent: { ok: true, path: 'hello.txt', bytes: 21, created: true },
    });
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('hi from the inspector');
  }, 60_000);
});
