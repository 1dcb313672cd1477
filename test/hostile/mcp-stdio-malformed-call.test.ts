import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { tempDir } from '../helpers.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const env = { ...process.env, TALLY_LEDGER: '' } as Record<string, string>;

// Whatever comes back: the point is what it is, not the SDK's idea of a result.
const LooseResult = z.object({}).loose();

interface Answer {
  isError?: boolean;
  content: { text: string }[];
}

/**
 * A tools/call whose params the SDK's schema refuses (arguments not an object, no tool name) used
 * to be answered with a raw JSON-RPC "Invalid tools/call request" error carrying zod's issues,
 * and left nothing in the ledger. It is a tool error with a reason code, recorded like any other.
 */
describe('MCP over stdio: malformed tools/call params', () => {
  it('arguments that are a string, an array, a number or null: INVALID_INPUT, recorded', async () => {
    const root = tempDir();
    const client = new Client({ name: 'malformed-call', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--root', root, '--packs', 'fs'],
        env,
        stderr: 'pipe',
      }),
    );
    const bad: unknown[] = ['{"path":"a.txt"}', ['a.txt'], 42, null];
    for (const args of bad) {
      const answer = (await client.request(
        { method: 'tools/call', params: { name: 'fs_read', arguments: args } as never },
        LooseResult,
      )) as unknown as Answer;
      expect(answer.isError, JSON.stringify(args)).toBe(true);
      const text = answer.content.map((part) => part.text).join('\n');
      expect(text).toMatch(/^INVALID_INPUT: Invalid input for fs_read: /);
      expect(text).toMatch(/expected object/);
      expect(text).toMatch(/Call it again with arguments that match its schema/);
    }
    // A missing or non-string tool name: the same kind of answer, not a protocol error.
    for (const params of [{ arguments: { path: 'a.txt' } }, { name: 7, arguments: {} }]) {
      const answer = (await client.request(
        { method: 'tools/call', params: params as never },
        LooseResult,
      )) as unknown as Answer;
      expect(answer.isError).toBe(true);
      expect(answer.content[0]?.text).toMatch(
        /^INVALID_INPUT: Invalid tools\/call request: it has .*fs_read/,
      );
    }
    // The session lives on.
    const ok = await client.callTool({ name: 'fs_write', arguments: { path: 'a.txt', content: 'x' } });
    expect(ok.isError).toBeFalsy();
    await client.close();

    const ledger = Ledger.open(join(root, '.tally', 'ledger.db'));
    try {
      const [run] = ledger.listRuns();
      expect(run).toMatchObject({ endingReason: 'finished', status: 'partial', toolCalls: 7 });
      const calls = ledger.entries(run?.id ?? '').filter((entry) => entry.kind === 'tool_call');
      const refused = calls.filter((entry) => entry.outcome === 'rejected');
      expect(refused).toHaveLength(6);
      for (const entry of refused)
        expect((entry.data as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
      expect(refused.slice(0, 4).map((entry) => (entry.data as { input: unknown }).input)).toEqual(bad);
    } finally {
      ledger.close();
    }
  }, 60_000);
});
