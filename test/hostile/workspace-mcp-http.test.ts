import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const TALLY_BIN = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const children: ChildProcess[] = [];
afterEach(() => {
  while (children.length > 0) children.pop()?.kill('SIGKILL');
});

/** The real CLI server, as a user starts it; resolves with its URL from stderr. */
async function startServer(root: string, ledger: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [TALLY_BIN, 'mcp', '--root', root, '--transport', 'http', '--port', '0', '--ledger', ledger],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TALLY_LEDGER: '', TALLY_MODEL: '' } },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (data: Buffer) => {
      stderr += data.toString();
      const url = /on (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`tally mcp exited with ${code}: ${stderr}`)));
  });
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'hostile', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const text = (result: unknown) =>
  ((result as { content: { text: string }[] }).content[0]?.text ?? '') as string;

const canMknod = process.getuid?.() === 0;

describe('one hostile client cannot stall another (tally mcp over HTTP)', () => {
  it('while a FIFO read, a device read and a catastrophic grep are in flight, another client reads within 100 ms', async () => {
    const base = tempDir('tally-hostile-');
    const root = join(base, 'proj');
    mkdirSync(root);
    writeFileSync(join(root, 'ok.txt'), 'fine\n');
    writeFileSync(join(root, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    execFileSync('mkfifo', [join(root, 'pipe')]);
    if (canMknod) execFileSync('mknod', [join(root, 'zero'), 'c', '1', '5']);
    // The ledger in a PARENT of the root: it must not make every path protected.
    const url = await startServer(root, join(base, 'ledger.db'));
    const hostile = await connect(url);
    const friendly = await connect(url);
    await friendly.callTool({ name: 'fs_read', arguments: { path: 'ok.txt' } }); // warm up

    let grepSettled = false;
    const grep = hostile
      .callTool({ name: 'fs_grep', arguments: { pattern: '(a+)+$' } }, undefined, { timeout: 30_000 })
      .finally(() => {
        grepSettled = true;
      });
    const fifo = hostile.callTool({ name: 'fs_read', arguments: { path: 'pipe' } });
    const device = canMknod ? hostile.callTool({ name: 'fs_read', arguments: { path: 'zero' } }) : undefined;
    if (!canMknod) console.warn('skipped the device case: mknod needs root');
    // The FIFO and the device are refused at once (before any open); the grep stays pending.
    const fifoResult = await fifo;
    expect(fifoResult.isError).toBe(true);
    expect(text(fifoResult)).toMatch(/^NOT_A_REGULAR_FILE: pipe is a fifo/);
    if (device) expect(text(await device)).toMatch(/^NOT_A_REGULAR_FILE: zero is a character device/);

    const latencies: number[] = [];
    for (let index = 0; index < 10; index++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      const read = await friendly.callTool({ name: 'fs_read', arguments: { path: 'ok.txt' } });
      latencies.push(performance.now() - started);
      expect(read.structuredContent).toMatchObject({ content: 'fine', endsWithNewline: true });
    }
    expect(grepSettled).toBe(false);
    console.log('friendly fs_read latencies (ms):', latencies.map((ms) => Math.round(ms)).join(' '));
    // A stalled server answers only when the grep ends (8 s). Under 100 ms is the target; on a
    // shared 2-core CI box a sample can lose the CPU to other test processes, so the median
    // must be under 100 ms and no sample may come near a stall.
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(100);
    expect(sorted.at(-1)).toBeLessThan(1000);

    const grepResult = await grep;
    expect(grepResult.isError).toBe(true);
    expect(text(grepResult)).toMatch(/^SEARCH_TIMEOUT: /);
    await hostile.close();
    await friendly.close();
  }, 60_000);
});
