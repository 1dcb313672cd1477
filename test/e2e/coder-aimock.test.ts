import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTurn } from '../../src/agents/coder/run-turn.js';
import { resolveModel } from '../../src/core/models/resolve-model.js';
import { type AimockServer, startAimock } from '../../src/testing/aimock.js';
import { sampleProject } from '../agents/coder/coder-fixtures.js';
import { tempLedger } from '../helpers.js';

type Request = {
  messages: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  tools?: unknown[];
};

const call = (id: string, name: string, input: unknown) => ({ id, name, arguments: JSON.stringify(input) });
const textOf = (content: unknown) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join('')
      : '';

// The Coder through the REAL @ai-sdk/openai and @ai-sdk/anthropic packages against aimock,
// which speaks both wire formats: requests are serialized and parsed as in production.
describe('the Coder over real providers (aimock)', () => {
  let server: AimockServer<LLMock>;
  const seen: Record<string, Request> = {};

  beforeAll(async () => {
    server = await startAimock<LLMock>((mock) => {
      // First matching fixture wins: tool-result fixtures go before message fixtures.
      mock.onToolResult('call_write_1', { content: 'I created src/hello.ts with a greet function.' });
      mock.onToolResult('toolu_read_1', {
        content: 'src/hello.ts exports greet(); I did not change anything this time.',
      });
      for (const [id, next] of [
        ['call_silent_1', 'call_silent_2'],
        ['call_silent_2', 'call_silent_3'],
      ])
        mock.onToolResult(id as string, {
          toolCalls: [call(next as string, 'fs_list', { path: id === 'call_silent_1' ? 'src' : '.' })],
        });
      mock.onToolResult('call_silent_3', {
        toolCalls: [call('call_silent_4', 'fs_read', { path: 'README.md' })],
      });
      for (const [id, next] of [
        ['call_loop_1', 'call_loop_2'],
        ['call_loop_2', 'call_loop_3'],
      ])
        mock.onToolResult(id as string, {
          content: 'Reading src/a.ts again.',
          toolCalls: [call(next as string, 'fs_read', { path: 'src/a.ts' })],
        });
      mock.onMessage(/same call with the same arguments/, {
        content: 'Once more.',
        toolCalls: [call('call_loop_4', 'fs_read', { path: 'src/a.ts' })],
      });
      mock.onMessage(/^Status check/, { content: 'Still reading the project files; one more to go.' });

      mock.onMessage('create src/hello.ts', {
        toolCalls: [
          call('call_write_1', 'fs_write', {
            path: 'src/hello.ts',
            content: 'export const greet = () => "hi";\n',
          }),
        ],
      });
      mock.onMessage('what is in hello now', (request) => {
        seen.anthropic = request as unknown as Request;
        return { toolCalls: [call('toolu_read_1', 'fs_read', { path: 'src/hello.ts' })] };
      });
      mock.onMessage('thanks, summarize the chat', (request) => {
        seen.openaiAgain = request as unknown as Request;
        return { content: 'Turn 1 created src/hello.ts; turn 2 only read it.' };
      });
      mock.onMessage('hello', (request) => {
        seen.greeting = request as unknown as Request;
        return { content: 'Hello! What shall we build?' };
      });
      mock.onMessage('inspect the project files', {
        toolCalls: [call('call_silent_1', 'fs_read', { path: 'src/a.ts' })],
      });
      mock.onMessage('keep reading a', {
        content: 'Reading src/a.ts.',
        toolCalls: [call('call_loop_1', 'fs_read', { path: 'src/a.ts' })],
      });
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('continues one chat across providers: OpenAI, then Anthropic, then OpenAI again', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const openai = await resolveModel('openai:gpt-4.1-mini', server.env);
    const anthropic = await resolveModel('anthropic:claude-sonnet-4-5', server.env);

    const first = await runTurn({
      message: 'create src/hello.ts',
      root,
      ledger,
      model: openai,
      maxRetries: 0,
    });
    expect(first).toMatchObject({ endingReason: 'finished', flags: [] });
    expect(first.changes).toEqual([expect.objectContaining({ path: 'src/hello.ts', change: 'created' })]);
    expect(readFileSync(join(root, 'src', 'hello.ts'), 'utf8')).toContain('greet');

    const second = await runTurn({
      chatId: first.chatId,
      message: 'what is in hello now',
      root,
      ledger,
      model: anthropic,
      maxRetries: 0,
    });
    expect(second).toMatchObject({
      endingReason: 'finished',
      changes: [],
      flags: [],
      model: 'anthropic.messages:claude-sonnet-4-5',
    });
    // Turn 1's tool call reached Anthropic only as text: no tool messages, no OpenAI call ids.
    const history = seen.anthropic?.messages ?? [];
    expect(history.filter((message) => message.role === 'tool' || message.tool_calls)).toEqual([]);
    expect(JSON.stringify(history)).not.toContain('call_write_1');
    expect(history.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(textOf(history[2]?.content)).toContain('fs_write src/hello.ts → ok');
    expect(textOf(history[2]?.content)).toContain('I created src/hello.ts with a greet function.');

    const third = await runTurn({
      chatId: first.chatId,
      message: 'thanks, summarize the chat',
      root,
      ledger,
      model: openai,
      maxRetries: 0,
    });
    expect(third).toMatchObject({ endingReason: 'finished', turn: 3, flags: [] });
    const again = seen.openaiAgain?.messages ?? [];
    expect(JSON.stringify(again)).not.toContain('toolu_read_1');
    expect(again.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(textOf(again[4]?.content)).toContain('fs_read src/hello.ts → ok');
  });

  it('answers a greeting without tools (Anthropic)', async () => {
    const model = await resolveModel('anthropic:claude-sonnet-4-5', server.env);
    const ledger = tempLedger();
    const result = await runTurn({ message: 'hello', root: sampleProject(), ledger, model, maxRetries: 0 });
    expect(result).toMatchObject({
      endingReason: 'finished',
      reply: 'Hello! What shall we build?',
      conversational: true,
    });
    expect(seen.greeting?.tools ?? []).toEqual([]);
    expect(ledger.getRun(result.runId).run.meta).toMatchObject({ conversational: { preview: 'hello' } });
  });

  it('nudges a silent model before the round cap (OpenAI)', async () => {
    const model = await resolveModel('openai:gpt-4.1-mini', server.env);
    const ledger = tempLedger();
    const result = await runTurn({
      message: 'inspect the project files',
      root: sampleProject(),
      ledger,
      model,
      maxRetries: 0,
      guards: { maxRounds: 4 },
    });
    expect(result.endingReason).toBe('finished');
    expect(result.reply).toBe('Still reading the project files; one more to go.');
    const entries = ledger.entries(result.runId);
    expect(entries.filter((entry) => entry.kind === 'nudge').map((entry) => entry.name)).toEqual(['silence']);
    expect(entries.filter((entry) => entry.kind === 'model_call')).toHaveLength(4);
  });

  it('ends a looping turn with `loop` and a recovery summary (OpenAI)', async () => {
    const model = await resolveModel('openai:gpt-4.1-mini', server.env);
    const ledger = tempLedger();
    const result = await runTurn({
      message: 'keep reading a',
      root: sampleProject(),
      ledger,
      model,
      maxRetries: 0,
    });
    expect(result.endingReason).toBe('loop');
    expect(result.recovery).toMatchObject({ reason: 'loop' });
    expect(result.recovery?.summary).toMatch(/^Not done\. Run ended: loop — .*4 tool calls: 4 succeeded/);
    expect(result.reply.endsWith(result.recovery?.summary ?? '—')).toBe(true);
    expect(ledger.entries(result.runId).at(-1)).toMatchObject({ kind: 'end', outcome: 'loop' });
  });
});
