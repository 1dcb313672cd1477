import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { defineAgent } from '../../src/core/agent/agent-definition.js';
import { finalize } from '../../src/core/agent/finalize-run.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../src/packs/workspace/tools/index.js';
import { createMcpServer } from '../../src/surfaces/mcp/create-mcp-server.js';
import { tempDir } from '../helpers.js';

/** What a process killed between its change and its outcome leaves in a run it shared. */
function danglingIntent(ledger: Ledger, runId: string): void {
  ledger.recorderFor(runId).append({
    kind: 'intent',
    name: 'fs_write',
    outcome: 'declared',
    data: {
      intentId: 'feedfacecafebeef',
      tool: 'fs_write',
      target: 'notes.md',
      action: 'write',
      resources: [{ space: 'file', key: 'notes.md' }],
    },
  });
}

async function workspace() {
  const base = tempDir('tally-intent-verdict-');
  const root = join(base, 'proj');
  mkdirSync(root);
  return {
    root,
    ledger: Ledger.open(join(base, 'ledger.db')),
    tools: workspaceTools({ root: await ProjectRoot.open(root) }),
  };
}

// Decision (issue 19, finding 14): an intent without an outcome is a change that may have
// happened with no evidence of it, so a run holding one is never `success`: `partial` with
// the intent in `unmet`, like an unrecovered failure.
describe('a run that ends with an unresolved intent', () => {
  it('a text answer is partial, naming the change that has no outcome', async () => {
    const { ledger, tools } = await workspace();
    const recorder = ledger.startRun({ agent: 'coder', task: 'tidy the notes' });
    danglingIntent(ledger, recorder.runId);
    const agent = defineAgent({ name: 'coder', instructions: 'Edit files with the fs tools.', tools });
    const result = await finalize({
      agent,
      recorder,
      ending: { reason: 'finished', answer: 'The notes are tidy.' },
      lastText: 'The notes are tidy.',
      counts: { modelCalls: 1, toolCalls: 0, failures: 0 },
    });
    expect(result.status).toBe('partial');
    expect(result.unmet).toEqual([
      'fs_write intended to write file notes.md, but no outcome was recorded (its process stopped in between): whether the change happened is unknown until the resource is checked',
    ]);
    const end = ledger.entries(recorder.runId).find((entry) => entry.kind === 'end');
    expect(end?.data.status).toBe('partial');
    ledger.close();
  });

  it('the same run without it is a success (the rule adds nothing else)', async () => {
    const { ledger, tools } = await workspace();
    const recorder = ledger.startRun({ agent: 'coder', task: 'tidy the notes' });
    const agent = defineAgent({ name: 'coder', instructions: 'Edit files with the fs tools.', tools });
    const result = await finalize({
      agent,
      recorder,
      ending: { reason: 'finished', answer: 'The notes are tidy.' },
      lastText: 'The notes are tidy.',
      counts: { modelCalls: 1, toolCalls: 0, failures: 0 },
    });
    expect(result.status).toBe('success');
    ledger.close();
  });

  it('an MCP session whose calls all succeeded is partial when its run holds one', async () => {
    const { ledger, tools } = await workspace();
    const mcp = createMcpServer({ tools, ledger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'intent-verdict', version: '1.0.0' });
    await client.connect(clientSide);
    const answer = (await client.callTool({
      name: 'fs_write',
      arguments: { path: 'a.md', content: 'x' },
    })) as {
      isError?: boolean;
    };
    expect(answer.isError).toBeFalsy();
    const [run] = ledger.listRuns();
    danglingIntent(ledger, run?.id as string);
    mcp.end();
    const end = ledger.entries(run?.id as string).find((entry) => entry.kind === 'end');
    expect(end?.data).toMatchObject({
      status: 'partial',
      unmet: [expect.stringContaining('fs_write intended to write file notes.md')],
    });
    await client.close();
    ledger.close();
  });
});
