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
