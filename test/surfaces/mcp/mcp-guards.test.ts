import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capToolResult } from '../../../src/surfaces/mcp/cap-tool-result.js';
import {
  bearerTokenMatches,
  isAllowedHost,
  isAllowedOrigin,
} from '../../../src/surfaces/mcp/check-http-access.js';
import { LineStdioTransport } from '../../../src/surfaces/mcp/line-stdio-transport.js';
import { describeOversizedRequest } from '../../../src/surfaces/mcp/oversized-request.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function transport(maxMessageBytes?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const line = new LineStdioTransport({ stdin, stdout, ...(maxMessageBytes ? { maxMessageBytes } : {}) });
  const messages: JSONRPCMessage[] = [];
  line.onmessage = (message) => messages.push(message);
  return { stdin, stdout, line, messages };
}

function feed(stdin: PassThrough, text: string, chunkBytes = 64 * 1024): void {
  const bytes = Buffer.from(text);
  for (let start = 0; start < bytes.length; start += chunkBytes)
    stdin.write(bytes.subarray(start, start + chunkBytes));
}

const call = (id: number, content: string) =>
  `${JSON.stringify({ method: 'tools/call', params: { name: 'fs_write', arguments: { path: 'a.txt', content } }, jsonrpc: '2.0', id })}\n`;

describe('the stdio transport', () => {
  it('joins a message split over many chunks once, copying it a bounded number of times', async () => {
    const { stdin, line, messages } = transport(32 * 1024 * 1024);
    await line.start();
    const concat = vi.spyOn(Buffer, 'concat');
    const content = 'x'.repeat(8 * 1024 * 1024);
    feed(stdin, call(1, content));
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toHaveLength(1);
    // The SDK's ReadBuffer concatenated its whole buffer per 64 KiB chunk: ~128× the message here.
    const copied = concat.mock.results.reduce((sum, result) => sum + (result.value as Buffer).length, 0);
    expect(copied).toBeLessThanOrEqual(2 * content.length);
  });

  it('reports a line over the limit with its id and tool, and keeps reading the next one', async () => {
    const { stdin, line, messages } = transport(1024 * 1024);
    const oversized: unknown[] = [];
    line.onoversized = (request) => oversized.push(request);
    const closed = vi.fn();
    line.onclose = closed;
    await line.start();
    feed(stdin, call(7, 'y'.repeat(3 * 1024 * 1024)) + call(8, 'small'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(oversized).toEqual([
      { bytes: expect.any(Number), id: 7, method: 'tools/call', toolName: 'fs_write' },
    ]);
    expect(messages).toMatchObject([{ id: 8 }]);
    expect(closed).not.toHaveBeenCalled();
  });

  it('closes with a transport error when stdout fails, instead of crashing', async () => {
    const { stdout, line } = transport();
    await line.start();
    const closed = new Promise<void>((resolve) => {
      line.onclose = resolve;
    });
    stdout.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await closed;
    expect(line.closing).toEqual({ transportError: true, why: 'transport error: write EPIPE' });
    await expect(line.send({ jsonrpc: '2.0', id: 1, result: {} })).rejects.toThrow(/closed/);
  });
});

describe('describeOversizedRequest', () => {
  it('finds the id at the end (TypeScript SDK) or at the start (Python SDK), never a nested one', () => {
    expect(
      describeOversizedRequest(
        '{"method":"tools/call","params":{"name":"fs_write",',
        '"jsonrpc":"2.0","id":12}',
        9,
      ),
    ).toEqual({ bytes: 9, id: 12, method: 'tools/call', toolName: 'fs_write' });
    expect(describeOversizedRequest('{"jsonrpc":"2.0","id":"a-1","method":"ping"', 'xx"}}', 9)).toMatchObject(
      { id: 'a-1', method: 'ping' },
    );
    expect(
      describeOversizedRequest('{"method":"notifications/x","params":{', '"id":3}}', 9),
    ).not.toHaveProperty('id');
  });
});

describe('capToolResult', () => {
  it('cuts the largest string to fit and says what was cut', () => {
    const result = { ok: true, path: 'a.txt', diff: 'd'.repeat(300_000) };
    const capped = capToolResult(result, 100_000);
    expect(Buffer.byteLength(capped.text)).toBeLessThanOrEqual(100_000);
    expect(capped.value).toMatchObject({ ok: true, path: 'a.txt' });
    expect(capped.notice).toMatch(/^RESULT_TRUNCATED: .*cut: diff \(300000 → \d+ characters\)/);
  });

  it('leaves a result under the cap untouched', () => {
    const result = { ok: true, content: 'small' };
    expect(capToolResult(result, 1000)).toEqual({ value: result, text: JSON.stringify(result) });
  });

  it('halves long lists and never splits a surrogate pair', () => {
    const capped = capToolResult(
      { items: Array.from({ length: 10_000 }, (_, index) => ({ index })), emoji: '😀'.repeat(10) },
      20_000,
    );
    expect(Buffer.byteLength(capped.text)).toBeLessThanOrEqual(20_000);
    expect((capped.value as { items: unknown[] }).items.length).toBeLessThan(10_000);
    expect(capped.text).not.toMatch(/\\ud83d"/);
  });
});

describe('HTTP access checks', () => {
  const policy = { port: 4100, listenHost: '0.0.0.0' };

  it('refuses a loopback Host name from a remote peer (a 0.0.0.0 listener reached from the network)', () => {
    expect(
      isAllowedHost('localhost:4100', { remoteAddress: '192.0.2.7', localAddress: '192.0.2.2' }, policy),
    ).toBe(false);
    expect(isAllowedHost('127.0.0.1:4100', { remoteAddress: '::ffff:192.0.2.7' }, policy)).toBe(false);
    expect(isAllowedHost('localhost:4100', { remoteAddress: '127.0.0.1' }, policy)).toBe(true);
    expect(isAllowedHost('[::1]:4100', { remoteAddress: '::1' }, policy)).toBe(true);
  });

  it('allows the address the connection arrived on, and nothing else', () => {
    const connection = { remoteAddress: '192.0.2.7', localAddress: '::ffff:192.0.2.2' };
    expect(isAllowedHost('192.0.2.2:4100', connection, policy)).toBe(true);
    expect(isAllowedHost('evil.example:4100', connection, policy)).toBe(false);
    expect(isAllowedHost('192.0.2.2:80', connection, policy)).toBe(false);
    expect(isAllowedHost(undefined, connection, policy)).toBe(false);
  });

  it('allows no Origin, loopback origins and listed ones; refuses the rest and "null"', () => {
    expect(isAllowedOrigin(undefined, [])).toBe(true);
    expect(isAllowedOrigin('http://localhost:6274', [])).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:3000', [])).toBe(true);
    expect(isAllowedOrigin('https://app.example', ['https://app.example'])).toBe(true);
    expect(isAllowedOrigin('https://evil.example', ['https://app.example'])).toBe(false);
    expect(isAllowedOrigin('http://localhost.evil.example', [])).toBe(false);
    expect(isAllowedOrigin('null', [])).toBe(false);
    expect(isAllowedOrigin('file://localhost/x', [])).toBe(false);
  });

  it('matches only the exact bearer token', () => {
    expect(bearerTokenMatches('Bearer s3cret', 's3cret')).toBe(true);
    expect(bearerTokenMatches('bearer s3cret', 's3cret')).toBe(true);
    expect(bearerTokenMatches('Bearer s3cre', 's3cret')).toBe(false);
    expect(bearerTokenMatches('Basic s3cret', 's3cret')).toBe(false);
    expect(bearerTokenMatches(undefined, 's3cret')).toBe(false);
  });
});
