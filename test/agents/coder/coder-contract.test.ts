import { describe, expect, it } from 'vitest';
import {
  type CoderContractData,
  coderContract,
  type FileRequirement,
  parseCoderContract,
} from '../../../src/agents/coder/coder-contract.js';
import type { ClaimResolver } from '../../../src/core/agent/claims.js';
import type { NetEffect, NetEffects } from '../../../src/core/effects.js';

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

describe('reading the request word by word', () => {
  const c = (path: string, contains?: string) => ({
    action: 'create',
    path,
    ...(contains ? { contains } : {}),
  });
  it.each([
    // What a file must contain, in each wording and quote style.
    ['write a.md containing: "x y"', [c('a.md', 'x y')]],
    ['write a.md containing :"x y"', [c('a.md', 'x y')]],
    ['write a.md containing:"x y"', [c('a.md', 'x y')]],
    ['write a.md with  the  text "x y"', [c('a.md', 'x y')]],
    ['write a.md with text "x y"', [c('a.md', 'x y')]],
    ['write a.md with the word "x y"', [c('a.md', 'x y')]],
    ['write a.md that  says "x y"', [c('a.md', 'x y')]],
    ['write a.md containing “x y”', [c('a.md', 'x y')]],
    ["write a.md containing 'x y'", [c('a.md', 'x y')]],
    ['write a.md containing `x y`', [c('a.md', 'x y')]],
    // Only a file to create or change holds text; text before any file is no requirement.
    ['delete a.md containing "x"', [{ action: 'delete', path: 'a.md' }]],
    ['containing "x" create a.md', [c('a.md')]],
    ['update a.md with the text "x"', [{ action: 'change', path: 'a.md', contains: 'x' }]],
    // Quoted words are no verbs, and punctuation around a path is no part of it.
    ['write "remove" into a.md', [c('a.md')]],
    ['create a.md titled "delete b.md"', [c('a.md')]],
    ['create a.md titled “delete b.md”', [c('a.md')]],
    ['create a.md titled `delete b.md`', [c('a.md')]],
    ['create a.md?!', [c('a.md')]],
    ['create (a.md)', [c('a.md')]],
    ['Create a.md.', [c('a.md')]],
    ['create ((a.md))', [c('a.md')]],
    ['create docs/a(1).md', [c('docs/a(1).md')]],
    ['create docs/a!b.md', [c('docs/a!b.md')]],
    // Negation: "leave", "not", "don't" keep the files after them, until the next verb.
    ['leave config.json as it is', [{ action: 'keep', path: 'config.json' }]],
    ['create a.md but not b.md', [c('a.md'), { action: 'keep', path: 'b.md' }]],
    [
      'leave a.md and b.md alone',
      [
        { action: 'keep', path: 'a.md' },
        { action: 'keep', path: 'b.md' },
      ],
    ],
    [
      'leave a.md and delete b.md',
      [
        { action: 'keep', path: 'a.md' },
        { action: 'delete', path: 'b.md' },
      ],
    ],
    [
      "leave a.md and don't delete b.md",
      [
        { action: 'keep', path: 'a.md' },
        { action: 'keep', path: 'b.md' },
      ],
    ],
    ["don't read a.md and create b.md", [c('b.md')]],
    ['create a.md and read b.md', [c('a.md')]],
    // Clauses: sentence ends, semicolons and "then" end what a verb or a negation covers.
    [
      'leave a.md then delete b.md',
      [
        { action: 'keep', path: 'a.md' },
        { action: 'delete', path: 'b.md' },
      ],
    ],
    ['Delete a.md. README.md stays.', [{ action: 'delete', path: 'a.md' }]],
    ['Delete a.md.  README.md stays.', [{ action: 'delete', path: 'a.md' }]],
    ['delete a.md;create b.md', [{ action: 'delete', path: 'a.md' }, c('b.md')]],
    ['Delete a.md (or not?)', [{ action: 'delete', path: 'a.md' }]],
    ['Delete a.md then is b.md needed?', [{ action: 'delete', path: 'a.md' }]],
    // The same file twice with one action is one requirement; with two actions, two.
    ['create a.md and a.md', [c('a.md')]],
    ['create a.md then update a.md', [c('a.md'), { action: 'change', path: 'a.md' }]],
    // A move's destination follows "to", "into" or "as" right after an open move.
    ['move a.md and write to b.md', [{ action: 'change', path: 'a.md' }, c('b.md')]],
    // Words that only begin or end like a verb or a negation are neither.
    ['create a.md plus this one: b.md', [c('a.md'), c('b.md')]],
    ['create a.md and, whatever happens, b.md', [c('a.md'), c('b.md')]],
    ['create a.md and notably b.md', [c('a.md'), c('b.md')]],
    ['create a.md and, if you cannot, b.md', [c('a.md'), c('b.md')]],
  ])('%s', (task, expected) => {
    expect(files(task)).toEqual(expected);
  });

  it.each([
    'should I delete a.md?',
    'Delete a.md (why? it is old)',
    'a.md has additional notes',
    'additional notes go in a.md',
    'movement notes in a.md',
    'everyone knew about a.md',
    'the asset a.png',
    'the settings live in config.json',
    'confirm a.md',
    'the dropdown in ui.tsx',
    'the movement notes are in a.md',
  ])('asks for nothing: %s', (task) => {
    expect(parseCoderContract(task)).toBeUndefined();
  });

  it('describes the contract in one line', () => {
    const long = 'x'.repeat(50);
    expect(
      parseCoderContract(`move a.md to docs/a.md; create b.md containing "${long}"; delete c.md`)
        ?.description,
    ).toBe(`move a.md → docs/a.md; create b.md containing "${'x'.repeat(40)}"; delete c.md`);
  });
});

describe('coderContract.check: each file requirement against the net effects', () => {
  const resolver: ClaimResolver = {
    space: 'file',
    canonical: async (spelling) => {
      if (spelling.startsWith('../')) throw new Error('outside');
      const key = spelling.replace(/^\.\//, '').replace(/\/$/, '');
      return key === '.' ? '' : key === 'link.md' ? ['real.md', 'link.md'] : key;
    },
    inspect: async (key) => (key === 'gone.md' ? undefined : { content: contents[key] }),
  };
  const contents: Record<string, string | undefined> = { 'a.md': 'hello world', 'b.md': 'x'.repeat(100) };
  const nets = (changes: Record<string, NetEffect['change']>): NetEffects =>
    new Map(
      Object.entries(changes).map(([key, change]) => [
        `file:${key}`,
        { space: 'file', key, change, read: false, preExisting: false, observed: {}, history: [] },
      ]),
    );
  const check = async (files: FileRequirement[], changes: Record<string, NetEffect['change']> = {}) =>
    coderContract(resolver).check(
      { source: 'request', description: '', data: { files }, words: [] },
      { net: nets(changes), entries: [], verified: [] },
    );

  it('a path outside the project is never met', async () => {
    expect(await check([{ action: 'create', path: '../x.md' }])).toEqual([
      '../x.md was asked for, but it is not a path inside the project',
    ]);
  });

  it('create and change: written this turn, with the asked text if any', async () => {
    expect(await check([{ action: 'create', path: 'a.md' }], { 'a.md': 'created' })).toEqual([]);
    expect(await check([{ action: 'change', path: './a.md' }], { 'a.md': 'updated' })).toEqual([]);
    expect(
      await check(
        [
          { action: 'create', path: 'a.md' },
          { action: 'change', path: 'b.md' },
          { action: 'create', path: 'c.md' },
        ],
        { 'a.md': 'deleted' },
      ),
    ).toEqual([
      'a.md was asked to be created, and this turn did not write it',
      'b.md was asked to be changed, and this turn did not change it',
      'c.md was asked to be created, and this turn did not write it',
    ]);
    const written = {
      'a.md': 'created',
      'b.md': 'updated',
      'c.md': 'created',
      'gone.md': 'created',
    } as const;
    expect(
      await check(
        [
          { action: 'create', path: 'a.md', contains: 'world' },
          { action: 'change', path: 'b.md', contains: `${'x'.repeat(90)}y` },
          { action: 'create', path: 'c.md', contains: 'z' },
          { action: 'create', path: 'gone.md', contains: 'z' },
        ],
        written,
      ),
    ).toEqual([
      `b.md does not contain the asked text "${'x'.repeat(80)}"`,
      'the content of c.md cannot be checked',
      'the content of gone.md cannot be checked',
    ]);
    const blind = coderContract({ space: 'file', canonical: (spelling) => spelling });
    expect(
      await blind.check(
        {
          source: 'request',
          description: '',
          data: { files: [{ action: 'create', path: 'a.md', contains: 'x' }] },
          words: [],
        },
        { net: nets({ 'a.md': 'created' }), entries: [], verified: [] },
      ),
    ).toEqual(['the content of a.md cannot be checked']);
  });

  it('a spelling with several keys is checked at the first (the file a write reaches)', async () => {
    expect(await check([{ action: 'change', path: 'link.md' }], { 'real.md': 'updated' })).toEqual([]);
  });

  it('delete: deleted this turn', async () => {
    expect(await check([{ action: 'delete', path: 'a.md' }], { 'a.md': 'deleted' })).toEqual([]);
    expect(await check([{ action: 'delete', path: 'a.md' }], { 'a.md': 'updated' })).toEqual([
      'a.md was asked to be deleted, and it was not',
    ]);
    expect(await check([{ action: 'delete', path: 'a.md' }])).toEqual([
      'a.md was asked to be deleted, and it was not',
    ]);
  });

  it('keep: not changed in any way', async () => {
    expect(await check([{ action: 'keep', path: 'a.md' }])).toEqual([]);
    expect(await check([{ action: 'keep', path: 'a.md' }], { 'a.md': undefined })).toEqual([]);
    expect(await check([{ action: 'keep', path: 'a.md' }], { 'a.md': 'deleted' })).toEqual([
      'a.md was to be left alone, and this turn deleted it',
    ]);
  });

  it('move: gone from its place and arrived at the destination, or in the destination folder', async () => {
    const move = (to?: string): FileRequirement => ({
      action: 'move',
      path: 'src/a.md',
      ...(to !== undefined ? { to } : {}),
    });
    expect(await check([move('lib/b.md')], { 'src/a.md': 'deleted', 'lib/b.md': 'created' })).toEqual([]);
    expect(await check([move('lib/')], { 'src/a.md': 'deleted', 'lib/a.md': 'updated' })).toEqual([]);
    expect(await check([move('.')], { 'src/a.md': 'deleted', 'a.md': 'created' })).toEqual([]);
    expect(await check([move('lib')], { 'src/a.md': 'deleted', 'lib/a.md': 'deleted' })).toEqual([
      'src/a.md was asked to be moved to lib, and it was not',
    ]);
    expect(await check([move('lib')], { 'src/a.md': 'updated', 'lib/a.md': 'created' })).toEqual([
      'src/a.md was asked to be moved to lib, and it was not',
    ]);
    expect(await check([move('.')], { 'src/a.md': 'deleted', '/a.md': 'created' })).toEqual([
      'src/a.md was asked to be moved to , and it was not',
    ]);
    expect(await check([move('../x')], { 'src/a.md': 'deleted' })).toEqual([
      '../x is not a path inside the project',
    ]);
    expect(await check([move()], { 'src/a.md': 'deleted' })).toEqual([
      '(no destination) is not a path inside the project',
    ]);
    expect(await check([move('lib')])).toEqual(['src/a.md was asked to be moved to lib, and it was not']);
  });
});
