import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { tempDir } from '../helpers.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const env = { ...process.env, TALLY_LEDGER: '' } as Record<string, string>;

async function connect(root: string, packs = 'fs') {
  const client = new Client({ name: 'hostile-stdio', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--root', root, '--packs', packs],
      env,
      stderr: 'pipe',
    }),
  );
  return client;
}

const text = (result: unknown) =>
  (result as { content: { text: string }[] }).content.map((part) => part.text).join('\n');

function runsOf(root: string) {
  const ledger = Ledger.open(join(root, '.tally', 'ledger.db'));
  const runs = ledger.listRuns().map((run) => ({
    ...run,
    end: ledger.entries(run.id).find((entry) => entry.kind === 'end')?.data as
      | { status: string; summary: string }
      | undefined,
  }));
  ledger.close();
  return runs;
}

describe('MCP over stdio, attacked', () => {
  it('refuses an 11 MB fs_write with a tool error and the session lives on', async () => {
    const root = tempDir();
    const client = await connect(root);
    const huge = await client.callTool(
      { name: 'fs_write', arguments: { path: 'big.txt', content: 'x'.repeat(11_000_000) } },
      undefined,
      { timeout: 60_000 },
    );
    expect(huge.isError).toBe(true);
    expect(text(huge)).toMatch(
      /^PAYLOAD_TOO_LARGE: the fs_write call was \d+ bytes, over the 10485760-byte limit/,
    );
    expect(existsSync(join(root, 'big.txt'))).toBe(false);
    const after = await client.callTool({
      name: 'fs_write',
      arguments: { path: 'small.txt', content: 'ok' },
    });
    expect(after.isError).toBeFalsy();
    await client.close();
    const [run] = runsOf(root);
    expect(run).toMatchObject({ endingReason: 'finished', status: 'partial', toolCalls: 2 });
  }, 60_000);

  it('caps an fs_edit response whose diff would pass the client’s 10 MB line limit', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'A\n');
    const client = await connect(root);
    const newString = 'n'.repeat(3 * 1024 * 1024);
    const edited = await client.callTool(
      { name: 'fs_edit', arguments: { path: 'a.txt', oldString: 'A', newString } },
      undefined,
      { timeout: 60_000 },
    );
    expect(edited.isError, text(edited)).toBeFalsy();
    expect(text(edited)).toMatch(/RESULT_TRUNCATED: .*cut: diff/);
    expect((edited.structuredContent as { diff: string }).diff.length).toBeLessThan(newString.length);
    expect(JSON.stringify(edited).length).toBeLessThan(5 * 1024 * 1024);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(`${newString}\n`);
    // The session survived the large response.
    expect((await client.callTool({ name: 'fs_list', arguments: {} })).isError).toBeFalsy();
    await client.close();
  }, 60_000);

  it('write latency grows linearly with payload size (1 MB vs 8 MB)', async () => {
    const root = tempDir();
    const client = await connect(root);
    const time = async (megabytes: number) => {
      const content = 'z'.repeat(megabytes * 1024 * 1024);
      const started = performance.now();
      const result = await client.callTool(
        { name: 'fs_write', arguments: { path: `w${megabytes}.txt`, content } },
        undefined,
        { timeout: 60_000 },
      );
      expect(result.isError, text(result)).toBeFalsy();
      return performance.now() - started;
    };
    await time(1); // warm-up
    const one = Math.min(await time(1), await time(1));
    const eight = Math.min(await time(8), await time(8));
    await client.close();
    // Linear is ~8×; the quadratic buffer measured 32× (190 ms → 6.1 s). Generous for a busy machine.
    expect(eight).toBeLessThan(Math.max(20 * one, 1500));
  }, 120_000);

  it('a session lost to a transport error is recorded as aborted, never as a success', async () => {
    const root = tempDir();
    const child = spawn(process.execPath, [bin, 'mcp', '--root', root], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const initialized = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await initialized;
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    child.stdout.destroy(); // the client stops reading: the next answer hits EPIPE
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fs_list', arguments: {} } });
    expect(await exited).toBe(0);
    const [run] = runsOf(root);
    expect(run?.endingReason).toBe('aborted');
    expect(run?.end?.status).not.toBe('success');
    expect(run?.end?.summary).toMatch(/transport error: .*EPIPE/);
  }, 30_000);

  it('SIGTERM ends the stdio session’s run as aborted, saying the server was stopped', async () => {
    const root = tempDir();
    const client = await connect(root);
    await client.callTool({ name: 'fs_write', arguments: { path: 'a.txt', content: 'a' } });
    const pid = (client.transport as StdioClientTransport).pid;
    const closed = new Promise<void>((resolve) => {
      client.onclose = resolve;
    });
    process.kill(pid ?? 0, 'SIGTERM');
    await closed;
    // The pipe can close before the dying process has committed its last entries: wait for the end.
    const deadline = Date.now() + 10_000;
    let [run] = runsOf(root);
    while (!run?.end && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      [run] = runsOf(root);
    }
    expect(run?.endingReason).toBe('aborted');
    expect(run?.end?.summary).toMatch(/aborted — the server was stopped \(SIGTERM\) — after 1 tool call/);
  }, 30_000);

  it('the records index sees a record added while the server runs', async () => {
    const { corpus } = await import('../packs/records/records-fixture.js');
    const root = corpus();
    const client = await connect(root, 'records');
    const query = async () =>
      (
        (await client.callTool({ name: 'records_query', arguments: { keyword: 'zeppelin' } }))
          .structuredContent as { records: { path: string }[] }
      ).records.map((record) => record.path);
    expect(await query()).toEqual([]);
    writeFileSync(
      join(root, 'references', 'procedures', 'moor-the-zeppelin.md'),
      '---\nid: PROC-zeppelin\nkind: procedure\ndate: 2026-09-15\nstatus: active\ntitle: Moor the zeppelin\nproject: shop\nkeywords:\n  - zeppelin\n---\nTie it down.\n',
    );
    expect(await query()).toEqual(['references/procedures/moor-the-zeppelin.md']);
    await client.close();
  }, 30_000);
});

describe('a ledger inside the served root', () => {
  it('protects the ledger files, not the whole project', async () => {
    const root = tempDir();
    const client = new Client({ name: 'ledger-in-root', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--root', root, '--ledger', join(root, 'ledger.db')],
        env,
        stderr: 'pipe',
      }),
    );
    const written = await client.callTool({
      name: 'fs_write',
      arguments: { path: 'notes.md', content: 'hi' },
    });
    expect(written.isError).toBeFalsy();
    for (const path of ['ledger.db', 'ledger.db-wal', 'fail-open.jsonl']) {
      const refused = await client.callTool({ name: 'fs_write', arguments: { path, content: 'x' } });
      expect(refused.isError, path).toBe(true);
      expect(text(refused), path).toMatch(/protected/);
    }
    await client.close();
  }, 30_000);
});
