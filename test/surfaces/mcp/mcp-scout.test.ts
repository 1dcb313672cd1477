import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import type { ScoutToolResult } from '../../../src/agents/scout/scout-tool.js';
import type { Effect } from '../../../src/core/effects.js';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { findScoutRun } from '../../../src/surfaces/claude-code/scout-run-fact.js';
import { corpus } from '../../packs/records/records-fixture.js';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'tally.js');
const RELEASE = 'references/procedures/release-a-version.md';
const DIRTY = 'references/failure-modes/dirty-working-tree.md';

describe('the scout over MCP (tally mcp --packs records), with the official SDK client over stdio', () => {
  it('is listed read-only, answers with the verified report, and its sub-run is linked to the session’s run', async () => {
    const root = corpus();
    const client = new Client({ name: 'scout-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--root', root, '--packs', 'records'],
        env: { ...process.env, TALLY_LEDGER: '', TALLY_MODEL: '' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const { tools } = await client.listTools();
    const scout = tools.find((tool) => tool.name === 'scout');
    expect(scout?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(scout?.inputSchema).toMatchObject({
      type: 'object',
      properties: { goal: { type: 'string' } },
      required: ['goal'],
    });

    const answer = await client.callTool({
      name: 'scout',
      arguments: { goal: 'how do I release a version of acme/shop' },
    });
    expect(answer.isError).toBeFalsy();
    const result = answer.structuredContent as unknown as ScoutToolResult;
    expect(result).toMatchObject({
      ok: true,
      tier: 'deterministic',
      endingReason: 'finished',
      repo: { name: 'acme/shop', from: 'goal' },
      commands: ['npm run release -- --dry-run', 'git tag -s vX.Y.Z'],
      dropped: [],
    });
    expect(result.governs.map((record) => record.path)).toEqual([DIRTY, RELEASE]);
    expect(result.governs[1]?.content).toContain('git tag -s vX.Y.Z');
    expect(result.unreachable.join('\n')).toContain('references/decisions/semantic-versioning.md');
    expect(result.report).toMatch(/^GOAL: how do I release a version of acme\/shop\n/);

    const refused = await client.callTool({ name: 'scout', arguments: { goal: '' } });
    expect(refused.isError).toBe(true);
    await client.close();

    // The session is one run; the scout is another in the same ledger, pointing back at it.
    const ledger = Ledger.open(join(root, '.tally', 'ledger.db'));
    try {
      const sessionRun = () => ledger.listRuns({ agent: 'mcp' })[0];
      for (let waited = 0; waited < 10_000 && !sessionRun()?.endingReason; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const session = sessionRun();
      expect(session).toMatchObject({ endingReason: 'finished' });
      const sub = ledger.getRun(result.subRunId);
      expect(sub.run).toMatchObject({ agent: 'scout', meta: { parentRunId: session?.id } });
      expect(sub.entries.filter((entry) => entry.kind === 'tool_call').map((entry) => entry.name)).toEqual([
        'records_recall',
        'records_query',
        'records_cat',
      ]);
      const call = ledger
        .entries(session?.id as string)
        .find((entry) => entry.kind === 'tool_call' && entry.name === 'scout' && entry.outcome === 'ok');
      const evidence = call?.data.evidence as { subRun: { runId: string }; effects: Effect[] } | undefined;
      expect(evidence?.subRun.runId).toBe(result.subRunId);
      expect(evidence?.effects.map((effect) => `${effect.kind} ${effect.key}`)).toEqual([
        `read ${DIRTY}`,
        `read ${RELEASE}`,
      ]);
      expect(call?.data.source).toBe('mcp');
    } finally {
      ledger.close();
    }
  });

  it('records the session it is given, so the how-do-i gate finds the run in the ledger (and only for that session)', async () => {
    const root = corpus();
    const turnStartedAt = new Date(Date.now() - 1000).toISOString();
    const client = new Client({ name: 'scout-session-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--root', root, '--packs', 'records'],
        env: { ...process.env, TALLY_LEDGER: '', TALLY_MODEL: '' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const ledgerPath = join(root, '.tally', 'ledger.db');
    const answer = await client.callTool({
      name: 'scout',
      arguments: { goal: 'how do I release a version of acme/shop', session: 'session-a' },
    });
    expect(answer.isError).toBeFalsy();
    const result = answer.structuredContent as unknown as ScoutToolResult;
    await client.close();
    expect(findScoutRun(ledgerPath, 'session-a', turnStartedAt)).toEqual({
      runId: result.subRunId,
      ledger: ledgerPath,
    });
    // Another session's gate, or a turn that began after the run, is not opened by it.
    expect(findScoutRun(ledgerPath, 'session-b', turnStartedAt)).toHaveProperty('none');
    expect(findScoutRun(ledgerPath, 'session-a', new Date(Date.now() + 60_000).toISOString())).toHaveProperty(
      'none',
    );
  });
});
