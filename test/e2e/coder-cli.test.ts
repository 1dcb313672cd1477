import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AimockServer, startAimock } from '../../src/testing/aimock.js';
import { sampleProject } from '../agents/coder/coder-fixtures.js';
import { runTally, tempDir } from '../helpers.js';

const call = (id: string, name: string, input: unknown) => ({ id, name, arguments: JSON.stringify(input) });

// `tally code` as a user runs it: the built CLI in a child process, the real OpenAI
// provider package, aimock on 127.0.0.1 as the server.
describe('tally code', () => {
  let server: AimockServer<LLMock>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await startAimock<LLMock>((mock) => {
      mock.onToolResult('call_cli_write', { content: 'I created src/cli.ts and updated src/b.ts.' });
      mock.onMessage('add src/cli.ts', {
        toolCalls: [call('call_cli_write', 'fs_write', { path: 'src/cli.ts', content: 'export {};\n' })],
      });
      mock.onMessage('what did we do', { content: 'In turn 1 I created src/cli.ts.' });
      mock.onMessage('hello', { content: 'Hello! Ready when you are.' });
    });
    env = { ...server.env, TALLY_MODEL: 'openai:gpt-4.1-mini' };
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('without a model exits 2 with the configuration message, and creates nothing', async () => {
    const root = sampleProject();
    const result = await runTally(['code', 'add a file', '--root', root]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'needs a language model and none is configured. Pass --model provider:model',
    );
    expect(existsSync(join(root, '.tally'))).toBe(false);
  });

  it('exits 3 for a missing root', async () => {
    const result = await runTally(['code', 'x', '--root', join(tempDir(), 'nope')], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('does not exist');
  });

  it('prints the reply, the changes table, the flags and the chat id; --chat continues the chat', async () => {
    const root = sampleProject();
    const first = await runTally(['code', 'add src/cli.ts', '--root', root], { env });
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('I created src/cli.ts and updated src/b.ts.');
    expect(first.stdout).toMatch(
      /PATH\s+CHANGE\s+BYTES\s+SHA256\nsrc\/cli\.ts\s+created\s+11\s+[0-9a-f]{12}/,
    );
    expect(first.stdout).toContain(
      'FLAGGED: the reply says src/b.ts was updated; the ledger shows: not touched this turn.',
    );
    expect(first.code).toBe(1);
    const chatId = /chat (chat_[a-z0-9]+) · turn 1/.exec(first.stdout)?.[1];
    expect(chatId).toBeDefined();
    expect(existsSync(join(root, '.tally', 'chats', `${chatId}.json`))).toBe(true);

    const second = await runTally(
      ['code', '--chat', chatId as string, '--json', 'what did we do', '--root', root],
      { env },
    );
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      chatId,
      turn: 2,
      reply: 'In turn 1 I created src/cli.ts.',
      changes: [],
      flags: [],
      endingReason: 'finished',
    });
  });

  it('with no task opens an interactive chat that ends on Ctrl-D', async () => {
    const root = sampleProject();
    const result = await runTally(['code', '--root', root], { env, input: 'hello\n' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Ctrl-D ends.');
    expect(result.stdout).toContain('Hello! Ready when you are.');
    expect(result.stdout).toMatch(/chat chat_[a-z0-9]+ · turn 1/);
  });

  it('refuses an unknown chat id with exit 2', async () => {
    const result = await runTally(['code', '--chat', 'chat_nope', 'hi', '--root', sampleProject()], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No chat "chat_nope"');
  });
});
