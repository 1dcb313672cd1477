// Soak: MCP over HTTP under 50 concurrent clients plus 2,000 idle sessions (expiry must bound
// memory), and stdio bursts of 1–8 MB writes (latency must grow linearly). 127.0.0.1 only.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { type BenchRow, medianMs } from '../measure.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const CLIENTS = 50;
const CALLS_PER_CLIENT = 200;
const IDLE_SESSIONS = 2000;
const IDLE_MS = 3000;
const DEADLINE_MS = 150_000;

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(root: string, ledgerPath: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [BIN, 'mcp', '--root', root, '--transport', 'http', '--port', '0', '--host', '127.0.0.1'],
    {
      env: { ...process.env, TALLY_LEDGER: ledgerPath, TALLY_MCP_SESSION_IDLE_MS: String(IDLE_MS) },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /on (http:\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return { child, url };
}

async function openIdleSession(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'idle', version: '1' } },
    }),
  });
  await response.text();
  const id = response.headers.get('mcp-session-id');
  if (!response.ok || !id) throw new Error(`initialize failed: ${response.status}`);
  return id;
}

async function httpSoak(rows: BenchRow[]): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'tally-soak-'));
  const ledgerPath = join(mkdtempSync(join(tmpdir(), 'tally-soak-ledger-')), 'ledger.db');
  const { child, url } = await startServer(root, ledgerPath);
  const pid = child.pid ?? 0;
  const started = Date.now();
  try {
    const rssStart = rssMb(pid);
    let errors = 0;
    const latencies: number[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, index) => {
        const client = new Client({ name: `soak-${index}`, version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        for (let call = 0; call < CALLS_PER_CLIENT && Date.now() - started < DEADLINE_MS; call++) {
          const write = call % 2 === 0;
          const begun = performance.now();
          try {
            const result = await client.callTool({
              name: write ? 'fs_write' : 'fs_read',
              arguments: write
                ? { path: `c${index}/f.txt`, content: `client ${index} call ${call}\n` }
                : { path: `c${index}/f.txt` },
            });
            if (result.isError) errors += 1;
          } catch {
            errors += 1;
          }
          latencies.push(performance.now() - begun);
        }
        await client.close();
      }),
    );
    const sorted = latencies.sort((a, b) => a - b);
    const rssAfterCalls = rssMb(pid);
    rows.push(
      {
        name: `http: ${CLIENTS} clients × ${CALLS_PER_CLIENT} calls`,
        value: `${latencies.length} calls`,
        target: `${CLIENTS * CALLS_PER_CLIENT}`,
        pass: latencies.length === CLIENTS * CALLS_PER_CLIENT,
      },
      { name: 'http: errors', value: String(errors), target: '0', pass: errors === 0 },
      { name: 'http: call latency p50', value: `${percentile(sorted, 50).toFixed(1)} ms` },
      { name: 'http: call latency p99', value: `${percentile(sorted, 99).toFixed(1)} ms` },
      {
        name: 'http: server RSS before → after calls',
        value: `${rssStart.toFixed(0)} → ${rssAfterCalls.toFixed(0)} MB`,
      },
    );

    const ids: string[] = [];
    let idleErrors = 0;
    for (let wave = 0; wave < IDLE_SESSIONS / 50; wave++)
      await Promise.all(
        Array.from({ length: 50 }, () =>
          openIdleSession(url).then(
            (id) => ids.push(id),
            () => {
              idleErrors += 1;
            },
          ),
        ),
      );
    const rssWithIdle = rssMb(pid);
    await sleep(IDLE_MS * 1.5 + 500);
    const rssExpired = rssMb(pid);
    const probe = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': ids[0] ?? '',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    await probe.text();
    // A second batch after expiry: RSS stays near the first peak instead of adding to it.
    for (let wave = 0; wave < IDLE_SESSIONS / 50; wave++)
      await Promise.all(
        Array.from({ length: 50 }, () => openIdleSession(url).catch(() => (idleErrors += 1))),
      );
    const rssSecondBatch = rssMb(pid);
    rows.push(
      {
        name: `http: ${IDLE_SESSIONS} idle sessions opened`,
        value: `${ids.length}`,
        target: `${IDLE_SESSIONS}, 0 errors`,
        pass: ids.length === IDLE_SESSIONS && idleErrors === 0,
      },
      { name: 'http: RSS with idle sessions', value: `${rssWithIdle.toFixed(0)} MB` },
      {
        name: `http: RSS ${((IDLE_MS * 1.5 + 500) / 1000).toFixed(1)} s later (idle ${IDLE_MS} ms)`,
        value: `${rssExpired.toFixed(0)} MB`,
      },
      {
        name: 'http: an expired session answers',
        value: String(probe.status),
        target: '404',
        pass: probe.status === 404,
      },
      {
        name: `http: RSS after ${IDLE_SESSIONS} more (first batch expired)`,
        value: `${rssSecondBatch.toFixed(0)} MB`,
        target: `< ${(rssWithIdle * 1.5).toFixed(0)} MB`,
        pass: rssSecondBatch < rssWithIdle * 1.5,
      },
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const ledger = Ledger.open(ledgerPath);
    const runs = ledger.listRuns();
    ledger.close();
    const open = runs.filter((run) => run.endingReason === null).length;
    rows.push({
      name: 'http: ledger runs left without an end entry',
      value: `${open} of ${runs.length}`,
      target: '0',
      pass: open === 0,
    });
    rmSync(root, { recursive: true, force: true });
  }
}

async function stdioBursts(rows: BenchRow[]): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'tally-soak-stdio-'));
  const client = new Client({ name: 'soak-stdio', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', root],
      env: { ...process.env, TALLY_LEDGER: join(root, '..', `${root.split('/').pop()}-ledger.db`) } as Record<
        string,
        string
      >,
      stderr: 'ignore',
    }),
  );
  try {
    const perMb: number[] = [];
    for (const megabytes of [1, 2, 4, 8]) {
      const content = 's'.repeat(megabytes * 1024 * 1024);
      const ms = await medianMs(3, async () => {
        const result = await client.callTool(
          { name: 'fs_write', arguments: { path: 'burst.txt', content } },
          undefined,
          { timeout: 60_000 },
        );
        if (result.isError) throw new Error(`fs_write of ${megabytes} MB failed`);
      });
      perMb.push(ms / megabytes);
      rows.push({
        name: `stdio: fs_write ${megabytes} MB (median of 3)`,
        value: `${ms.toFixed(0)} ms`,
        baseline: `${(ms / megabytes).toFixed(0)} ms/MB`,
      });
    }
    const ratio = (perMb[3] ?? 0) / (perMb[0] ?? 1);
    rows.push({
      name: 'stdio: ms/MB at 8 MB ÷ ms/MB at 1 MB',
      value: ratio.toFixed(2),
      target: '< 3 (quadratic: ~8)',
      pass: ratio < 3,
    });
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function mcpSoakBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  await httpSoak(rows);
  await stdioBursts(rows);
  return rows;
}
