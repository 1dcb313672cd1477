import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { tempDir } from '../../helpers.js';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'tally.js');

interface ToolCallData {
  tool: string;
  evidence?: { sha256?: string; bytes?: number };
}

/** The tool_call entries another connection sees right now (read-only: as `tally runs show` would). */
function committedCalls(path: string): ToolCallData[] {
  const reader = Ledger.open(path, { readonly: true });
  try {
    return reader
      .listRuns()
      .flatMap((run) => reader.entries(run.id))
      .filter((entry) => entry.kind === 'tool_call')
      .map((entry) => entry.data as unknown as ToolCallData);
  } finally {
    reader.close();
  }
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

// The per-call path was made leaner (synchronous small-file I/O, fewer directory scans); what
// must not change: an answer over stdio is an acknowledgement that the call's entry is committed,
// with the sha256 of what is on disk.
describe('tally mcp over stdio: every answer comes after its entry is committed', () => {
  it('after each fs_read, fs_write and fs_edit answer, a second connection already sees its entry', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
    const client = new Client({ name: 'committed-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--packs', 'fs', '--root', root],
        env: { ...process.env, TALLY_LEDGER: '' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const ledgerPath = join(root, '.tally', 'ledger.db');
    try {
      const calls: [string, Record<string, unknown>, string][] = [
        ['fs_read', { path: 'a.ts' }, 'a.ts'],
        ['fs_write', { path: 'lib/b.ts', content: 'export const b = 2;\n' }, 'lib/b.ts'],
        ['fs_edit', { path: 'a.ts', oldString: '= 1', newString: '= 3' }, 'a.ts'],
        ['fs_write', { path: 'lib/b.ts', content: 'export const b = 4;\n' }, 'lib/b.ts'],
      ];
      for (const [index, [name, args, file]] of calls.entries()) {
        const answer = (await client.callTool({ name, arguments: args })) as { isError?: boolean };
        expect(answer.isError).toBeFalsy();
        // No waiting, no polling: the answer itself is the acknowledgement.
        const seen = committedCalls(ledgerPath);
        expect(seen.map((call) => call.tool)).toEqual(calls.slice(0, index + 1).map(([tool]) => tool));
        expect(seen[index]?.evidence?.sha256).toBe(sha256(join(root, file)));
      }
      expect(readFileSync(join(root, 'a.ts'), 'utf8')).toBe('export const a = 3;\n');
      expect(readFileSync(join(root, 'lib', 'b.ts'), 'utf8')).toBe('export const b = 4;\n');
    } finally {
      await client.close();
    }
  }, 30_000);
});
