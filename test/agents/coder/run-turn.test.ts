import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import { callTool, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { promptTexts, sampleProject } from './coder-fixtures.js';

describe('runTurn: one chat turn over the workspace tools', () => {
  it('ends in text and reports the files it changed from the net effects', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }, 'Adding src/c.ts.'),
      say('I created src/c.ts.'),
    ]);

    const result = await runTurn({ message: 'add a constant c in src/c.ts', root, ledger, model });

    model.assertComplete();
    expect(result.endingReason).toBe('finished');
    expect(result.reply).toBe('I created src/c.ts.');
    expect(result.changes).toEqual([
      expect.objectContaining({
        path: 'src/c.ts',
        change: 'created',
        bytes: 20,
        sha256: expect.stringMatching(/^[0-9a-f]{12}$/),
      }),
    ]);
    expect(result.flags).toEqual([]);
    expect(result.recovery).toBeUndefined();
    expect(result.turn).toBe(1);
    expect(readFileSync(join(root, 'src', 'c.ts'), 'utf8')).toBe('export const c = 3;\n');
  });

  it('persists the chat and carries a compact, provider-neutral history into the next turn', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const first = await runTurn({
      message: 'fix src/a.ts',
      root,
      ledger,
      model: scriptedModel([
        callTool('fs_edit', { path: 'src/a.ts', oldString: '= 1', newString: '= 10' }),
        callTool('fs_read', { path: 'missing.ts' }),
        say('Updated src/a.ts; missing.ts does not exist.'),
      ]),
    });
    const second = scriptedModel([say('It now exports 10.')]);

    const result = await runTurn({
      chatId: first.chatId,
      message: 'what does a export now',
      root,
      ledger,
      model: second,
    });

    expect(result.turn).toBe(2);
    expect(result.chatId).toBe(first.chatId);
    const prompt = second.calls[0]?.prompt ?? [];
    // Only system/user/assistant text: no tool-call parts or tool messages from turn 1.
    expect(prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.stringify(prompt)).not.toMatch(/tool-call|tool-result|call_\d/);
    const [, user, assistant, current] = promptTexts(prompt);
    expect(user?.text).toBe('fix src/a.ts');
    expect(assistant?.text).toContain('fs_edit src/a.ts → ok');
    expect(assistant?.text).toMatch(/fs_read missing\.ts → (error|rejected) — FILE_NOT_FOUND/);
    expect(assistant?.text).toContain('Updated src/a.ts; missing.ts does not exist.');
    expect(current?.text).toBe('what does a export now');
    const stored = JSON.parse(readFileSync(join(root, '.tally', 'chats', `${first.chatId}.json`), 'utf8'));
    expect(stored.turns).toHaveLength(2);
    expect(stored.turns[0].changes).toEqual([
      expect.objectContaining({ path: 'src/a.ts', change: 'updated' }),
    ]);
    expect(ledger.getRun(result.runId).run.meta).toMatchObject({ chatId: first.chatId, turn: 2 });
  });

  it("refuses writes into Tally's own state: the chats and the ledger folder", async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const first = await runTurn({ message: 'hello', root, ledger, model: scriptedModel([say('Hi.')]) });
    const result = await runTurn({
      chatId: first.chatId,
      message: 'rewrite the chat file',
      root,
      ledger,
      model: scriptedModel([
        callTool('fs_write', { path: `.tally/chats/${first.chatId}.json`, content: '{}' }),
        say('I could not: the path is protected.'),
      ]),
    });
    expect(result.tools).toEqual([
      expect.objectContaining({
        tool: 'fs_write',
        outcome: 'rejected',
        error: expect.stringContaining('protected-path'),
      }),
    ]);
    expect(result.changes).toEqual([]);
    expect(
      JSON.parse(readFileSync(join(root, '.tally', 'chats', `${first.chatId}.json`), 'utf8')).turns,
    ).toHaveLength(2);
  });
});
