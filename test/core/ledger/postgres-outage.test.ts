import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { z } from 'zod';
import type { LedgerError } from '../../../src/core/errors.js';
import { createFailOpen } from '../../../src/core/fail-open.js';
import { invokeTool } from '../../../src/core/invoke-tool.js';
import { openLedger } from '../../../src/core/ledger/ledger.js';
import { defineTool } from '../../../src/core/tool.js';
import { tempDir } from '../../helpers.js';
import { describePostgres } from '../../support/describe-postgres.js';

const EXIT_CHILD = join(import.meta.dirname, 'exit-child.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

describePostgres('PostgreSQL ledger: a server that goes away during a run', (server) => {
  it('holds the entries, reports LEDGER_BUSY once past the limit, writes them all when it is back', async () => {
    const url = server.createDatabase('outage').replace('postgres@', 'postgres:pw-OUTAGE-SECRET@');
    const reported: LedgerError[] = [];
    const ledger = await openLedger(url, {
      busyLimitMs: 300,
      onBusy: (error) => reported.push(error),
      failOpenLog: `${tempDir()}/fail-open.jsonl`,
    });
    const run = ledger.startRun({ agent: 'a', task: 't' });
    run.append({ kind: 'tool_call', name: 'before', outcome: 'ok', data: {} });
    expect(await run.commit()).toBe(true);
    server.halt();
    try {
      for (const name of ['during1', 'during2', 'during3'])
        run.append({ kind: 'tool_call', name, outcome: 'ok', data: {} });
      // The run's own view never waits for the server.
      expect(run.entries().map((entry) => entry.name)).toEqual(['before', 'during1', 'during2', 'during3']);
      expect(await run.commit(1500)).toBe(false);
      expect(reported.map((error) => error.code)).toEqual(['LEDGER_BUSY']);
      expect(reported[0]?.message).toContain('postgres://postgres:***@');
      expect(reported[0]?.message).not.toContain('pw-OUTAGE-SECRET');
    } finally {
      server.resume();
    }
    expect(await run.commit(10_000)).toBe(true);
    const { entries } = await ledger.getRun(run.runId);
    expect(entries.map((entry) => [entry.seq, entry.name])).toEqual([
      [1, 'before'],
      [2, 'during1'],
      [3, 'during2'],
      [4, 'during3'],
      [5, 'ledger'],
    ]);
    expect(entries[4]).toMatchObject({ kind: 'fail_open', outcome: 'ledger-unavailable' });
    await ledger.close();
  }, 60_000);

  it('a run that ends while the server is away: its fail_open entry comes before its end entry, once', async () => {
    const url = server.createDatabase('outage_end');
    const ledger = await openLedger(url, { busyLimitMs: 300, failOpenLog: `${tempDir()}/fail-open.jsonl` });
    const run = ledger.startRun({ agent: 'a', task: 't' });
    run.append({ kind: 'tool_call', name: 'before', outcome: 'ok', data: {} });
    expect(await run.commit()).toBe(true);
    server.halt();
    try {
      run.append({ kind: 'tool_call', name: 'during', outcome: 'ok', data: {} });
      expect(await run.commit(1500)).toBe(false);
      run.append({ kind: 'end', name: 'finished', outcome: 'finished', data: { reason: 'finished' } });
      // Queued in that order, before anything reached the server.
      expect(run.entries().map((entry) => entry.kind)).toEqual([
        'tool_call',
        'tool_call',
        'fail_open',
        'end',
      ]);
    } finally {
      server.resume();
    }
    expect(await run.commit(10_000)).toBe(true);
    const { entries } = await ledger.getRun(run.runId);
    // Written as queued; the outage's end adds no second fail_open after the end entry.
    expect(entries.map((entry) => entry.kind)).toEqual(['tool_call', 'tool_call', 'fail_open', 'end']);
    expect(entries[2]).toMatchObject({ outcome: 'ledger-unavailable' });
    await ledger.close();
  }, 60_000);

  it('a program that returns while the server is away: what it queued is written once the server is back', async () => {
    const url = server.createDatabase('outage_exit');
    const child = spawn(process.execPath, ['--import', TSX, EXIT_CHILD, url, 'return-in-outage', '300'], {
      cwd: tempDir(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve();
      }),
    );
    const runId = stdout.trim();
    server.halt();
    try {
      child.stdin.write('go\n');
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      server.resume();
    }
    expect(await exited, stderr).toBe(0);
    expect(stderr).not.toMatch(/not committed/);
    const ledger = await openLedger(url);
    try {
      const { entries } = await ledger.getRun(runId);
      expect(entries.filter((entry) => entry.kind === 'tool_call').map((entry) => entry.data.index)).toEqual([
        ...Array(300).keys(),
      ]);
    } finally {
      await ledger.close();
    }
  }, 60_000);

  it('past the busy limit, a call that may change something is refused (LEDGER_BUSY) and not run; a read still runs', async () => {
    const url = server.createDatabase('outage_refuse');
    const ledger = await openLedger(url, { busyLimitMs: 300, failOpenLog: `${tempDir()}/fail-open.jsonl` });
    const failOpen = createFailOpen({ logPath: `${tempDir()}/fail-open.jsonl` });
    const sent: string[] = [];
    const tool = (name: string, readOnly: boolean) =>
      defineTool({
        name,
        description: name,
        inputSchema: z.object({}),
        annotations: { readOnly },
        execute: async () => {
          sent.push(name);
          return { result: { ok: true } };
        },
      });
    const run = ledger.startRun({ agent: 'a', task: 't' });
    expect((await invokeTool(tool('post', false), {}, { recorder: run, failOpen })).outcome).toBe('ok');
    expect(await run.commit()).toBe(true);
    server.halt();
    try {
      run.append({ kind: 'tool_call', name: 'during', outcome: 'ok', data: {} });
      expect(await run.commit(1500)).toBe(false);
      const refused = await invokeTool(tool('post', false), {}, { recorder: run, failOpen });
      expect(refused).toMatchObject({ outcome: 'rejected', error: { code: 'LEDGER_BUSY' } });
      expect((await invokeTool(tool('get', true), {}, { recorder: run, failOpen })).outcome).toBe('ok');
      // The first POST only: none was sent while nothing reached the ledger.
      expect(sent).toEqual(['post', 'get']);
    } finally {
      server.resume();
    }
    expect(await run.commit(10_000)).toBe(true);
    await ledger.close();
  }, 60_000);
});
