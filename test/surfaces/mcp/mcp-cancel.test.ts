import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { tempDir } from '../../helpers.js';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'tally.js');

/** An API whose one endpoint answers after 20 s; says when a request's connection was dropped unanswered. */
async function slowApi(): Promise<{ server: Server; url: string; dropped: Promise<void> }> {
  let drop: () => void = () => {};
  const dropped = new Promise<void>((resolve) => {
    drop = resolve;
  });
  const server = createServer((request, response) => {
    const timer = setTimeout(() => response.end('{"ok":true}'), 20_000);
    request.socket.on('close', () => {
      clearTimeout(timer);
      if (!response.writableEnded) drop();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, dropped };
}

function har(url: string): object {
  return {
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: [
        {
          startedDateTime: '2026-01-01T00:00:00.000Z',
          time: 1,
          request: {
            method: 'GET',
            url: `${url}/api/slow`,
            httpVersion: 'HTTP/1.1',
            headers: [],
            queryString: [],
            cookies: [],
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion: 'HTTP/1.1',
            headers: [{ name: 'content-type', value: 'application/json' }],
            cookies: [],
            content: { size: 11, mimeType: 'application/json', text: '{"ok":true}' },
            redirectURL: '',
            headersSize: -1,
            bodySize: 11,
          },
          cache: {},
          timings: { send: 0, wait: 1, receive: 0 },
        },
      ],
    },
  };
}

describe('tally mcp: a client that cancels a call (notifications/cancelled)', () => {
  it('stops the tool (the request is dropped, not left running) and the ledger records the call as cut short', async () => {
    const api = await slowApi();
    const root = tempDir();
    const capture = join(root, 'capture.har');
    writeFileSync(capture, JSON.stringify(har(api.url)));
    const client = new Client({ name: 'cancel-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--packs', 'http', '--root', root, '--captures', capture, '--base-url', api.url],
        env: { ...process.env, TALLY_LEDGER: '' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'request', arguments: { method: 'GET', path: '/api/slow' } },
        undefined,
        {
          signal: controller.signal,
          timeout: 60_000,
        },
      );
      setTimeout(() => controller.abort('the user pressed stop'), 500);
      await expect(call).rejects.toThrow();
      // The server sees the connection dropped soon after the cancel, not after its 20 s.
      const outcome = await Promise.race([
        api.dropped.then(() => 'dropped'),
        new Promise((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000)),
      ]);
      expect(outcome).toBe('dropped');
      // The call's entry is committed once the tool stops; poll briefly for it.
      const ledgerPath = join(root, '.tally', 'ledger.db');
      let call_:
        | { outcome?: string | null; data: { error?: { code?: string; message?: string } } }
        | undefined;
      for (let attempt = 0; attempt < 100 && !call_; attempt++) {
        const reader = Ledger.open(ledgerPath, { readonly: true });
        try {
          call_ = reader
            .listRuns()
            .flatMap((run) => reader.entries(run.id))
            .find((entry) => entry.kind === 'tool_call' && entry.name === 'request') as typeof call_;
        } finally {
          reader.close();
        }
        if (!call_) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(call_?.outcome).not.toBe('ok');
      expect(call_?.data.error).toMatchObject({
        code: 'ABORTED',
        message: 'request was abandoned: the caller aborted it (the user pressed stop).',
      });
    } finally {
      await client.close();
      api.server.closeAllConnections();
      api.server.close();
    }
  }, 60_000);
});
