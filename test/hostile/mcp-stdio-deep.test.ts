import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/surfaces/mcp/line-stdio-transport.js';
import { tempDir } from '../helpers.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');

/** `tally mcp` over raw stdio: write lines, wait for the answer with a given id. */
function rawServer(root: string) {
  const child = spawn(process.execPath, [bin, 'mcp', '--root', root, '--packs', 'fs'], {
    env: { ...process.env, TALLY_LEDGER: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const answers = new Map<number, unknown>();
  const waiting = new Map<number, (message: unknown) => void>();
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, newline)) as { id?: number };
      buffered = buffered.slice(newline + 1);
      if (typeof message.id !== 'number') continue;
      answers.set(message.id, message);
      waiting.get(message.id)?.(message);
    }
  });
  const answer = (id: number) =>
    new Promise<unknown>((resolve) => {
      if (answers.has(id)) resolve(answers.get(id));
      else waiting.set(id, resolve);
    });
  const send = (line: string) => child.stdin.write(`${line}\n`);
  return { child, answer, send };
}

const call = (id: number, method: string, params: unknown = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('MCP stdio: a deeply nested line (issue 19, item 13)', () => {
  it('5 MB of `[` is refused with PAYLOAD_TOO_LARGE before any parse, and the session answers at once', async () => {
    const server = rawServer(tempDir());
    server.send(
      call(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      }),
    );
    await server.answer(1);
    server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const started = performance.now();
    // A tool call whose arguments are 5 MB of `[`: the id is read off the line's head.
    server.send(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fs_read","arguments":{"path":${'['.repeat(5_000_000)}}}}`,
    );
    const refused = (await server.answer(2)) as { result: { isError: boolean; content: { text: string }[] } };
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0]?.text).toMatch(
      /^PAYLOAD_TOO_LARGE: the fs_read call \(\d+ bytes\) nests JSON deeper than 256 levels; it was not parsed/,
    );
    // A bare line of 5 MB of `[` (no id to answer): the next request is not held behind it.
    server.send('['.repeat(5_000_000));
    server.send(call(3, 'tools/list'));
    expect(await server.answer(3)).toMatchObject({ result: { tools: expect.any(Array) } });
    const elapsed = performance.now() - started;
    console.log(`two 5 MB lines of [ then tools/list: ${elapsed.toFixed(0)} ms`);
    // Measured, not asserted tightly: the bound only catches a session held behind the line.
    expect(elapsed).toBeLessThan(15_000);
    server.child.stdin.end();
    await new Promise((resolve) => server.child.once('exit', resolve));
  }, 30_000);
});

describe('nestsDeeperThan', () => {
  it('counts brackets outside strings only, escaped quotes included', () => {
    const deep = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);
    expect(nestsDeeperThan(deep(256), 256)).toBe(false);
    expect(nestsDeeperThan(deep(257), 256)).toBe(true);
    const inString = Buffer.from(JSON.stringify({ content: `a \\" ${'['.repeat(1000)} "\\` }));
    expect(nestsDeeperThan(inString, 256)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(`{"a":"\\\\",${'{"b":'.repeat(300)}1${'}'.repeat(301)}`), 256)).toBe(
      true,
    );
  });
});
