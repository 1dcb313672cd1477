import { describe, expect, it } from 'vitest';
import { type CoderContractData, parseCoderContract } from '../../../src/agents/coder/coder-contract.js';

const files = (task: string) => (parseCoderContract(task)?.data as CoderContractData | undefined)?.files;

describe("the Coder's contract, read from the request", () => {
  it.each([
    ['create notes/todo.md', [{ action: 'create', path: 'notes/todo.md' }]],
    [
      'Create a.md and b.md',
      [
        { action: 'create', path: 'a.md' },
        { action: 'create', path: 'b.md' },
      ],
    ],
    ['add .env with the text "PORT=1"', [{ action: 'create', path: '.env', contains: 'PORT=1' }]],
    [
      'write hello.txt containing "hello world"',
      [{ action: 'create', path: 'hello.txt', contains: 'hello world' }],
    ],
    ['update .github/workflows/ci.yml', [{ action: 'change', path: '.github/workflows/ci.yml' }]],
    ['delete old/notes.md', [{ action: 'delete', path: 'old/notes.md' }]],
    ['move a.md to docs/a.md', [{ action: 'move', path: 'a.md', to: 'docs/a.md' }]],
    ['rename config.json to settings.json', [{ action: 'move', path: 'config.json', to: 'settings.json' }]],
    ['rename the function in src/a.ts', [{ action: 'change', path: 'src/a.ts' }]],
    [
      "fix src/a.ts but don't touch src/b.ts",
      [
        { action: 'change', path: 'src/a.ts' },
        { action: 'keep', path: 'src/b.ts' },
      ],
    ],
    ['Read src/a.ts, then edit src/b.ts', [{ action: 'change', path: 'src/b.ts' }]],
  ])('%s', (task, expected) => {
    expect(files(task)).toEqual(expected);
  });

  it.each([
    'what does src/a.ts do?',
    'explain README.md',
    'hello! how are you?',
    'can you look at package.json',
    'Show me docs/guide.md',
  ])('asks for no change: %s', (task) => {
    expect(parseCoderContract(task)).toBeUndefined();
  });

  it('words of the contract name every path and stated text', () => {
    expect(parseCoderContract('move a.md to docs/a.md and create b.md containing "x"')?.words).toEqual([
      'a.md',
      'docs/a.md',
      'b.md',
      'x',
    ]);
  });
});

describe('a turn is checked against the files its request names', () => {
  it('moving into a folder, creating with content, and leaving a file alone', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir, tempLedger } = await import('../../helpers.js');
    const { runTurn } = await import('../../../src/agents/coder/run-turn.js');
    const { callTool, say, scriptedModel } = await import('../../../src/testing/scripted-model.js');
    const root = tempDir('tally-coder-contract-');
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
    writeFileSync(join(root, 'keep.md'), 'keep\n');
    const ledger = tempLedger();
    const honest = await runTurn({
      root,
      ledger,
      browser: false,
      decisions: false,
      message: 'Move src/b.ts into lib/ and create notes.md containing "moved b"',
      model: scriptedModel([
        callTool('fs_move', { from: 'src/b.ts', to: 'lib/b.ts' }),
        callTool('fs_write', { path: 'notes.md', content: 'moved b\n' }),
        say('Done.\n\nChanges:\n- moved src/b.ts -> lib/b.ts\n- created notes.md'),
      ]),
    });
    expect(honest.unmet).toEqual([]);
    expect(honest.status).toBe('success');
    const short = await runTurn({
      root,
      ledger,
      browser: false,
      decisions: false,
      message: 'Create todo.md containing "ship it" and don\'t touch keep.md',
      model: scriptedModel([
        callTool('fs_write', { path: 'todo.md', content: 'later\n' }),
        callTool('fs_write', { path: 'keep.md', content: 'changed\n' }),
        say('Done.\n\nChanges:\n- created todo.md\n- updated keep.md'),
      ]),
    });
    expect(short.status).toBe('partial');
    expect(short.unmet).toEqual([
      'todo.md does not contain the asked text "ship it"',
      'keep.md was to be left alone, and this turn updated it',
    ]);
    const end = ledger.entries(short.runId).find((entry) => entry.kind === 'end');
    expect(end?.data).toMatchObject({ status: 'partial', contract: { source: 'request' } });
  });
});
