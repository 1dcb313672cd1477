import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mentionedChanges } from '../../../src/agents/coder/mentioned-changes.js';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import { callTool, type ScriptStep, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { sampleProject } from './coder-fixtures.js';

async function turn(root: string, steps: ScriptStep[], message = 'do the work') {
  const model = scriptedModel(steps);
  const result = await runTurn({ message, root, ledger: tempLedger(), model });
  model.assertComplete();
  return result;
}

describe('the changes report comes from net effects, not from the reply', () => {
  it('flags a claimed change the turn did not make (the file was only read)', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      callTool('fs_read', { path: 'src/a.ts' }),
      say('I updated src/a.ts to export 2.'),
    ]);
    expect(result.changes).toEqual([]);
    expect(result.flags).toEqual([
      {
        path: 'src/a.ts',
        spelling: 'src/a.ts',
        said: 'updated',
        truth: 'unchanged this turn (only read)',
        source: 'prose',
      },
    ]);
  });

  it('flags a claimed change to a file the turn never touched', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      say('Created `src/c.ts` and updated `src/b.ts` to re-export it.'),
    ]);
    expect(result.changes.map((row) => [row.path, row.change])).toEqual([['src/c.ts', 'created']]);
    expect(result.flags).toEqual([
      {
        path: 'src/b.ts',
        spelling: 'src/b.ts',
        said: 'updated',
        truth: 'not touched this turn',
        source: 'prose',
      },
    ]);
  });

  it('counts one file written under four spellings once, and accepts every spelling in the reply', async () => {
    const root = sampleProject();
    symlinkSync(join(root, 'src'), join(root, 'linked'));
    const absolute = join(root, 'src', 'a.ts');
    const result = await turn(root, [
      callTool('fs_write', { path: 'src/a.ts', content: 'one\n' }),
      callTool('fs_write', { path: './src/a.ts', content: 'two\n' }),
      callTool('fs_write', { path: absolute, content: 'three\n' }, 'Writing.'),
      callTool('fs_write', { path: 'linked/a.ts', content: 'four\n' }),
      say(
        `I updated src/a.ts, then ./src/a.ts, then ${absolute}, and finally linked/a.ts. I also created src/ghost.ts.`,
      ),
    ]);
    expect(result.changes).toEqual([
      expect.objectContaining({ path: 'src/a.ts', change: 'updated', bytes: 5 }),
    ]);
    expect(result.flags).toEqual([
      {
        path: 'src/ghost.ts',
        spelling: 'src/ghost.ts',
        said: 'created',
        truth: 'not touched this turn',
        source: 'prose',
      },
    ]);
  });

  it('flags "created" for a file that existed, and a delete claim for an updated file', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      callTool('fs_write', { path: 'src/a.ts', content: 'export const a = 5;\n' }),
      say('Created src/a.ts. Deleted README.md.'),
    ]);
    expect(result.flags).toEqual([
      { path: 'src/a.ts', spelling: 'src/a.ts', said: 'created', truth: 'updated', source: 'prose' },
      {
        path: 'README.md',
        spelling: 'README.md',
        said: 'deleted',
        truth: 'not touched this turn',
        source: 'prose',
      },
    ]);
  });

  it('reports a move as one row and accepts "moved", "renamed" and "deleted the source"', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      callTool('fs_move', { from: 'src/b.ts', to: 'lib/b.ts' }),
      callTool('fs_delete', { path: 'README.md' }),
      say('Renamed src/b.ts to lib/b.ts (src/b.ts was removed) and deleted README.md.'),
    ]);
    expect(result.changes).toEqual([
      expect.objectContaining({ path: 'README.md', change: 'deleted' }),
      expect.objectContaining({ path: 'lib/b.ts', change: 'moved', from: 'src/b.ts', bytes: 20 }),
    ]);
    expect(result.flags).toEqual([]);
  });

  it('flags a claim about a path outside the project', async () => {
    const root = sampleProject();
    const result = await turn(root, [say('I wrote /etc/hosts for you.')], 'hello, set up hosts');
    expect(result.flags).toEqual([
      expect.objectContaining({
        path: '/etc/hosts',
        said: 'written',
        truth: expect.stringMatching(/^not a file in the project/),
      }),
    ]);
  });

  it('does not flag negations, intentions, reads, code blocks or a bare name of a changed file', async () => {
    const root = sampleProject();
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'guide.md'), '# Guide\n');
    const result = await turn(root, [
      // The read is made: a read claim is held to the ledger too.
      callTool('fs_read', { path: 'src/b.ts' }),
      callTool('fs_edit', { path: 'src/a.ts', oldString: '= 1', newString: '= 3' }),
      say(
        [
          'I read src/b.ts and updated a.ts.',
          'I did not change README.md, and docs/guide.md is unchanged.',
          'You should update docs/guide.md next. Shall I delete src/b.ts?',
          '```ts\n// created src/fake.ts\n```',
        ].join('\n'),
      ),
    ]);
    expect(result.changes.map((row) => row.path)).toEqual(['src/a.ts']);
    expect(result.flags).toEqual([]);
  });
});

describe('recaps of earlier turns', () => {
  it('accepts a recap backed by an earlier turn of the chat, and flags the same claim made for this turn', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const first = await runTurn({
      message: 'add c',
      root,
      ledger,
      model: scriptedModel([
        callTool('fs_write', { path: 'src/c.ts', content: 'c\n' }),
        say('Created src/c.ts.'),
      ]),
    });
    const second = await runTurn({
      chatId: first.chatId,
      message: 'add it again',
      root,
      ledger,
      model: scriptedModel([say('In turn 1 I created src/c.ts. Now I created src/c.ts again.')]),
    });
    expect(second.flags).toEqual([
      {
        path: 'src/c.ts',
        spelling: 'src/c.ts',
        said: 'created',
        truth: 'not touched this turn (created in turn 1)',
        source: 'prose',
      },
    ]);
    // The next turn is told which of its statements were flagged.
    const third = scriptedModel([say('Understood.')]);
    await runTurn({ chatId: first.chatId, message: 'ok', root, ledger, model: third });
    expect(JSON.stringify(third.calls[0]?.prompt)).toContain(
      'Flagged: the reply says src/c.ts was created; the ledger shows: not touched this turn (created in turn 1).',
    );
  });
});

describe('mentionedChanges: the detection rule', () => {
  it.each([
    ['I created src/a.ts.', [['src/a.ts', 'created']]],
    [
      'Updated `src/a.ts` and `src/b.ts`.',
      [
        ['src/a.ts', 'updated'],
        ['src/b.ts', 'updated'],
      ],
    ],
    [
      'src/a.ts and src/b.ts were updated',
      [
        ['src/a.ts', 'updated'],
        ['src/b.ts', 'updated'],
      ],
    ],
    ['- src/a.ts: created', [['src/a.ts', 'created']]],
    ['I added a test to src/a.test.ts', [['src/a.test.ts', 'written']]],
    ['I removed the unused import from src/a.ts', [['src/a.ts', 'written']]],
    [
      'Moved src/a.ts to src/b.ts',
      [
        ['src/a.ts', 'moved'],
        ['src/b.ts', 'moved'],
      ],
    ],
    ['I read src/a.ts and updated src/b.ts', [['src/b.ts', 'updated']]],
    ['I read src/a.ts, updated src/b.ts', [['src/b.ts', 'updated']]],
    ["I haven't modified src/a.ts", []],
    ['src/a.ts was not changed', []],
    ['I will update src/a.ts', []],
    ['Should I create src/a.ts?', []],
    ['See https://example.com/docs/a.ts — updated upstream', []],
    ['We now run on Node.js, I updated nothing else', []],
    ['I updated the docs, e.g. the intro', []],
  ])('%s', (text, expected) => {
    expect(mentionedChanges(text).map((mention) => [mention.spelling, mention.said])).toEqual(expected);
  });
});
