import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../src/packs/workspace/tools/index.js';
import { createMcpServer } from '../../src/surfaces/mcp/create-mcp-server.js';
import { tempDir } from '../helpers.js';
import { holdLock } from './hold-lock.js';

async function session(busyLimitMs: number) {
  const base = tempDir('tally-mcp-busy-');
  const root = join(base, 'proj');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(root);
  const path = join(base, 'ledger.db');
  const ledger = Ledger.open(path, { busyLimitMs });
  const mcp = createMcpServer({ tools: workspaceTools({ root: await ProjectRoot.open(root) }), ledger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(serverSide);
  const client = new Client({ name: 'busy-test', version: '1.0.0' });
  await client.connect(clientSide);
  return { root, path, ledger, client, mcp };
}

// Issue 19, item 4: an MCP answer is an acknowledgement that the call is in the ledger.
describe('MCP under a ledger write lock held by another process', () => {
  it('past the bounded wait a write is answered LEDGER_BUSY, never acknowledged without its entry', async () => {
    const { root, path, ledger, client } = await session(400);
    const { released } = await holdLock(path, 2_000);
    const answer = (await client.callTool({
      name: 'fs_write',
      arguments: { path: 'a.txt', content: 'x' },
    })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(answer.isError).toBe(true);
    // Issue 19, finding 14: the intent is committed before the rename, so a ledger that
    // stays locked stops the write itself: nothing on disk that the ledger cannot account for.
    expect(answer.content[0]?.text).toMatch(
      /^LEDGER_BUSY: fs_write made no change: its intent could not be committed/,
    );
    expect(existsSync(join(root, 'a.txt'))).toBe(false);
    expect(readdirSync(root)).toEqual([]);
    await released;
    // The entry was kept and is written once the lock frees: nothing lost.
    expect(await ledger.commit()).toBe(true);
    const calls = ledger
      .listRuns()
      .flatMap((run) => ledger.entries(run.id))
      .filter((entry) => entry.kind === 'tool_call');
    expect(calls.map((entry) => entry.name)).toEqual(['fs_write']);
    expect(calls[0]).toMatchObject({ outcome: 'rejected', data: { error: { code: 'LEDGER_BUSY' } } });
    await client.close();
  }, 20_000);

  it('a lock freed within the wait: the answer waits for the commit and then acknowledges', async () => {
    const { path, ledger, client } = await session(5_000);
    const { released } = await holdLock(path, 600);
    const answer = (await client.callTool({
      name: 'fs_write',
      arguments: { path: 'b.txt', content: 'y' },
    })) as {
      isError?: boolean;
    };
    expect(answer.isError).toBeFalsy();
    // Acknowledged means committed: a second connection already sees the entry.
    const reader = Ledger.open(path, { readonly: true });
    try {
      const calls = reader
        .listRuns()
        .flatMap((run) => reader.entries(run.id))
        .filter((entry) => entry.kind === 'tool_call');
      expect(calls.map((entry) => entry.name)).toEqual(['fs_write']);
    } finally {
      reader.close();
    }
    await released;
    ledger.close();
    await client.close();
  }, 20_000);
});
