import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { recomputeVerdict } from '../../../src/core/agent/recompute-verdict.js';
import type { RunRecord } from '../../../src/core/ledger/entry.js';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../../src/packs/workspace/tools/index.js';
import { formatVerify } from '../../../src/surfaces/cli/verify-command.js';
import { createMcpServer } from '../../../src/surfaces/mcp/create-mcp-server.js';
import { tempDir, tempLedger } from '../../helpers.js';

/** One MCP session over the workspace tools: a write, a read, and a refused read outside. */
async function recordedSession(): Promise<RunRecord> {
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), 'a\n');
  const ledger = tempLedger();
  const projectRoot = await ProjectRoot.open(root);
  const session = createMcpServer({ tools: workspaceTools({ root: projectRoot }), ledger, projectRoot });
  session.begin();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: 'verify', version: '1.0.0' });
  await client.connect(clientSide);
  await client.callTool({ name: 'fs_write', arguments: { path: 'b.txt', content: 'b' } });
  await client.callTool({ name: 'fs_read', arguments: { path: 'a.txt' } });
  await client.callTool({ name: 'fs_read', arguments: { path: '../outside.txt' } });
  await client.close();
  await session.end();
  await ledger.commit();
  const [run] = ledger.listRuns();
  return ledger.getRun(run?.id ?? '') as RunRecord;
}

describe('tally verify on an MCP session (calls, no claims)', () => {
  it('recomputes the session’s status and counts from its entries, and they match', async () => {
    const run = await recordedSession();
    const result = await recomputeVerdict(run);
    expect(result.mismatches).toEqual([]);
    expect(result.matches).toBe(true);
    expect(result.recomputed).toMatchObject({ status: 'partial', calls: { toolCalls: 3, failures: 1 } });
    expect(formatVerify(result, 'ledger.db')).toContain(
      'recomputed: partial · finished · 3 tool calls, 1 failed or rejected, no claims',
    );
  });

  it('an end entry edited to say success is caught', async () => {
    const run = await recordedSession();
    const entries = run.entries.map((entry) =>
      entry.kind === 'end'
        ? {
            ...entry,
            data: { ...entry.data, status: 'success', counts: { toolCalls: 2, failures: 0, modelCalls: 0 } },
          }
        : entry,
    );
    const result = await recomputeVerdict({ ...run, entries });
    expect(result.matches).toBe(false);
    expect(result.mismatches.map((mismatch) => mismatch.what)).toEqual([
      'the end entry records status success, the ledger gives partial',
      'the end entry records tool calls 2, the ledger gives 3',
      'the end entry records failures 0, the ledger gives 1',
    ]);
  });
});
