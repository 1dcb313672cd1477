import { describe, expect, it } from 'vitest';
import {
  type ChangeList,
  type ListedChange,
  parseChangeList,
  strictEntry,
  verifyChangeList,
} from '../../../src/agents/coder/change-list.js';
import type { PathHistory } from '../../../src/agents/coder/changes-report.js';
import type { FileChange } from '../../../src/agents/coder/chat-record.js';
import type { EarlierTurn } from '../../../src/agents/coder/flag-false-statements.js';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { tempDir } from '../../helpers.js';

describe('strictEntry: the asked-for form of a bullet', () => {
  it.each([
    ['updated src/a.ts', { said: 'updated', spelling: 'src/a.ts', strict: true }],
    ['  updated src/a.ts  ', { said: 'updated', spelling: 'src/a.ts', strict: true }],
    ['updated:src/a.ts', { said: 'updated', spelling: 'src/a.ts', strict: true }],
    ['updated src/a.ts "with notes"', { said: 'updated', spelling: 'src/a.ts', strict: true }],
    ['deleted src/my_file.ts', { said: 'deleted', spelling: 'src/my_file.ts', strict: true }],
    ['created __init__.py', { said: 'created', spelling: '__init__.py', strict: true }],
    ['created _config.yml', { said: 'created', spelling: '_config.yml', strict: true }],
    ['updated src/__init__.py', { said: 'updated', spelling: 'src/__init__.py', strict: true }],
    ['deleted __a.ts__.', { said: 'deleted', spelling: 'a.ts', strict: true }],
    ['updated src/my_file.ts*', { said: 'updated', spelling: 'src/my_file.ts', strict: true }],
    ['deleted **src/a.ts**', { said: 'deleted', spelling: 'src/a.ts', strict: true }],
    ['moved `a.ts`-> b.ts', { said: 'moved', spelling: 'b.ts', from: 'a.ts', strict: true }],
    ['moved a.ts ->b.ts', { said: 'moved', spelling: 'b.ts', from: 'a.ts', strict: true }],
    ['Updated: src/a.ts', { said: 'updated', spelling: 'src/a.ts', strict: true }],
    ['**deleted** src/a.ts', { said: 'deleted', spelling: 'src/a.ts', strict: true }],
    ['__created__ `src/a.ts`', { said: 'created', spelling: 'src/a.ts', strict: true }],
    ['created "docs/my notes.md"', { said: 'created', spelling: 'docs/my notes.md', strict: true }],
    ["created ' docs/a.md '", { said: 'created', spelling: 'docs/a.md', strict: true }],
    ['deleted *src/a.ts*,', { said: 'deleted', spelling: 'src/a.ts', strict: true }],
    ['created docker/Dockerfile', { said: 'created', spelling: 'docker/Dockerfile', strict: true }],
    ['created LICENSE', { said: 'created', spelling: 'LICENSE', strict: true }],
    ['moved a.ts → b.ts', { said: 'moved', spelling: 'b.ts', from: 'a.ts', strict: true }],
    ['moved a.ts => b.ts', { said: 'moved', spelling: 'b.ts', from: 'a.ts', strict: true }],
    [
      'renamed a.ts TO b.ts (kept the tests)',
      { said: 'moved', spelling: 'b.ts', from: 'a.ts', strict: true },
    ],
  ])('%s', (bullet, expected) => {
    expect(strictEntry(bullet)).toEqual(expected);
  });

  it.each([
    'updatedfoo src/a.ts',
    'deleted',
    'deleted   ',
    'deleted **',
    'moved a.ts',
    'moved a.ts -> ',
    'moved a.ts b.ts',
    'moved foo -> b.ts',
    'moved a.ts -> foo',
    'created MyDockerfile',
    'created Makefiles',
    'src/abc.ts was deleted',
    'moved a.ts abc.ts -> x',
    'deleted src/a.ts, src/b.ts',
    'and then updated src/a.ts',
  ])('%s is no strict entry', (bullet) => {
    expect(strictEntry(bullet)).toBeUndefined();
  });
});

describe('parseChangeList', () => {
  it('each bullet is one strict entry or the prose claims on it; the rest of the reply keeps its other lines', () => {
    expect(
      parseChangeList(
        'Done.\nChanges:\n- updated src/a.ts\n- src/b.ts\n- created src/c.ts (in turn 1)\n\nThanks.\n\nFiles changed:\n- deleted d.ts',
      ),
    ).toEqual({
      entries: [
        { said: 'updated', spelling: 'src/a.ts', strict: true, recap: false, line: 'updated src/a.ts' },
        { said: 'changed', spelling: 'src/b.ts', strict: false, recap: false, line: 'src/b.ts' },
        {
          said: 'created',
          spelling: 'src/c.ts',
          strict: true,
          recap: true,
          line: 'created src/c.ts (in turn 1)',
        },
        { said: 'deleted', spelling: 'd.ts', strict: true, recap: false, line: 'deleted d.ts' },
      ],
      none: false,
      rest: 'Done.\n\n\n\n\n\nThanks.\n\n\n',
    });
  });

  it('a "none" bullet is no entry; a list of nothing is a list; a list of no files is none', () => {
    expect(parseChangeList('Changes:\n- `none`\n- updated src/a.ts')).toMatchObject({
      entries: [{ said: 'updated', spelling: 'src/a.ts' }],
      none: true,
    });
    expect(parseChangeList('Changes:\n- none')).toEqual({ entries: [], none: true, rest: '\n' });
    expect(parseChangeList('Changes:\n- tidied the code')).toBeUndefined();
    expect(parseChangeList('Changes: none\n\nFiles changed:\n- tidied the code')).toEqual({
      entries: [],
      none: true,
      rest: '\n\n\n',
    });
    expect(parseChangeList('Changes: none\n\nFiles changed:\n- updated a.ts')?.none).toBe(true);
    expect(parseChangeList('Changes:\n- updated a.ts\n\nFiles changed: none')?.none).toBe(true);
    // A file the prose reader does not see (no extension) is no recap either.
    expect(parseChangeList('Changes:\n- created Dockerfile')?.entries).toEqual([
      { said: 'created', spelling: 'Dockerfile', strict: true, recap: false, line: 'created Dockerfile' },
    ]);
  });

  it('a prose bullet with a verb is read as prose, not strictly', () => {
    expect(parseChangeList('Changes:\n- I updated src/a.ts')?.entries).toEqual([
      { said: 'updated', spelling: 'src/a.ts', strict: false, recap: false, line: 'I updated src/a.ts' },
    ]);
  });
});

async function factsOf(
  changes: FileChange[],
  earlier: EarlierTurn[] = [],
  histories: [string, PathHistory][] = [],
) {
  return { changes, histories: new Map(histories), root: await ProjectRoot.open(tempDir()), earlier };
}
const list = (...bullets: string[]): ChangeList => {
  const parsed = parseChangeList(`Changes:\n${bullets.map((bullet) => `- ${bullet}`).join('\n')}`);
  if (!parsed) throw new Error('no list');
  return parsed;
};
const row = (path: string, change: FileChange['change'], extra: Partial<FileChange> = {}): FileChange => ({
  path,
  change,
  via: '#1',
  ...extra,
});
const flagsOf = async (changes: FileChange[], bullets: string[], earlier: EarlierTurn[] = []) =>
  (await verifyChangeList(list(...bullets), await factsOf(changes, earlier))).map(
    (flag) => `${flag.path} | ${flag.spelling} | ${flag.said} | ${flag.truth} | ${flag.source}`,
  );

describe('verifyChangeList: the list against the report, both ways', () => {
  it('a path outside the project is flagged as listed, either end of a move', async () => {
    expect(await flagsOf([], ['updated ../x.ts', 'moved ../y.ts -> b.ts', 'moved a.ts -> ../z.ts'])).toEqual([
      '../x.ts | ../x.ts | updated | not a file in the project (traversal) | changes-list',
      '../y.ts -> b.ts | ../y.ts -> b.ts | moved | not a file in the project (traversal) | changes-list',
      'a.ts -> ../z.ts | a.ts -> ../z.ts | moved | not a file in the project (traversal) | changes-list',
    ]);
  });

  it('a move is its moved row, or (moved, then edited) its source deleted and its destination new', async () => {
    expect(await flagsOf([row('b.ts', 'moved', { from: 'a.ts' })], ['moved a.ts -> b.ts'])).toEqual([]);
    expect(await flagsOf([row('a.ts', 'deleted'), row('b.ts', 'created')], ['moved a.ts -> b.ts'])).toEqual(
      [],
    );
    expect(await flagsOf([row('a.ts', 'deleted'), row('b.ts', 'updated')], ['moved a.ts -> b.ts'])).toEqual(
      [],
    );
    expect(await flagsOf([row('b.ts', 'moved', { from: 'c.ts' })], ['moved a.ts -> b.ts'])).toEqual([
      'b.ts | a.ts -> b.ts | moved | a.ts: not touched this turn; b.ts: moved here from c.ts, content unchanged | changes-list',
    ]);
    expect(await flagsOf([row('a.ts', 'deleted'), row('b.ts', 'deleted')], ['moved a.ts -> b.ts'])).toEqual([
      'b.ts | a.ts -> b.ts | moved | a.ts: deleted; b.ts: deleted | changes-list',
    ]);
    expect(await flagsOf([row('b.ts', 'moved', { from: 'a.ts' })], ['moved a.ts -> c.ts'])).toEqual([
      'c.ts | a.ts -> c.ts | moved | a.ts: moved to b.ts; c.ts: not touched this turn | changes-list',
      'b.ts | b.ts | left out of the Changes list | moved here from a.ts, content unchanged | changes-list',
    ]);
    expect(await flagsOf([row('x.ts', 'deleted'), row('b.ts', 'created')], ['moved a.ts -> b.ts'])).toEqual([
      'b.ts | a.ts -> b.ts | moved | a.ts: not touched this turn; b.ts: created | changes-list',
      'x.ts | x.ts | left out of the Changes list | deleted | changes-list',
    ]);
    expect(await flagsOf([row('a.ts', 'deleted'), row('x.ts', 'created')], ['moved a.ts -> b.ts'])).toEqual([
      'b.ts | a.ts -> b.ts | moved | a.ts: deleted; b.ts: not touched this turn | changes-list',
      'x.ts | x.ts | left out of the Changes list | created | changes-list',
    ]);
    expect(await flagsOf([row('a.ts', 'updated'), row('b.ts', 'created')], ['moved a.ts -> b.ts'])).toEqual([
      'b.ts | a.ts -> b.ts | moved | a.ts: updated; b.ts: created | changes-list',
    ]);
  });

  it('a kind is checked strictly in the asked-for form and leniently in prose; a wrong kind still lists the file', async () => {
    expect(await flagsOf([row('a.ts', 'created')], ['updated a.ts'])).toEqual([
      'a.ts | a.ts | updated | created | changes-list',
    ]);
    expect(await flagsOf([row('a.ts', 'created')], ['I updated a.ts'])).toEqual([]);
  });

  it('a Python package file keeps its underscores', async () => {
    expect(await flagsOf([row('__init__.py', 'created')], ['created __init__.py'])).toEqual([]);
  });

  it('the same wrong entry twice is flagged once', async () => {
    expect(await flagsOf([], ['deleted a.ts', 'deleted a.ts'])).toEqual([
      'a.ts | a.ts | deleted | not touched this turn | changes-list',
    ]);
  });

  it('every real change must be listed: a move by its destination, and its source unless listed as a move', async () => {
    const moved = [row('b.ts', 'moved', { from: 'a.ts' })];
    expect(await flagsOf(moved, ['created b.ts'])).toEqual([
      'a.ts | a.ts | left out of the Changes list | moved to b.ts | changes-list',
    ]);
    expect(await flagsOf(moved, ['created b.ts', 'deleted a.ts'])).toEqual([]);
    expect(await flagsOf(moved, ['deleted a.ts'])).toEqual([
      'b.ts | b.ts | left out of the Changes list | moved here from a.ts, content unchanged | changes-list',
    ]);
    expect(await flagsOf(moved, ['moved a.ts -> b.ts', 'created b.ts'])).toEqual([]);
    // Listed with a wrong kind, then with a right one: the move's source needs no entry of its own.
    expect(await flagsOf(moved, ['updated b.ts', 'created b.ts'])).toEqual([
      'b.ts | b.ts | updated | moved here from a.ts, content unchanged | changes-list',
    ]);
    expect(await flagsOf(moved, ['updated b.ts'])).toEqual([
      'b.ts | b.ts | updated | moved here from a.ts, content unchanged | changes-list',
    ]);
  });

  it('a directory listed as a whole lists the files inside it, not files that only share its prefix', async () => {
    const changes = [row('docs', 'deleted'), row('docs/one.md', 'deleted'), row('docs2/x.md', 'deleted')];
    expect(await flagsOf(changes, ['deleted docs/'])).toEqual([
      'docs2/x.md | docs2/x.md | left out of the Changes list | deleted | changes-list',
    ]);
  });

  it('a recap is excused only by an earlier turn that made that change, both ends of a move', async () => {
    const earlier: EarlierTurn[] = [
      { turn: 1, changes: [row('c.ts', 'created'), row('m2.ts', 'moved', { from: 'm1.ts' })] },
    ];
    expect(
      await flagsOf([], ['created c.ts (in turn 1)', 'moved m1.ts -> m2.ts (in turn 1)'], earlier),
    ).toEqual([]);
    expect(await flagsOf([], ['deleted c.ts (in turn 1)'], earlier)).toEqual([
      'c.ts | c.ts | deleted | not touched this turn (created in turn 1) | changes-list',
    ]);
    expect(await flagsOf([], ['moved x.ts -> m2.ts (in turn 1)'], earlier)).toEqual([
      'm2.ts | x.ts -> m2.ts | moved | x.ts: not touched this turn; m2.ts: not touched this turn | changes-list',
    ]);
    expect(await flagsOf([], ['created c.ts'], earlier)).toEqual([
      'c.ts | c.ts | created | not touched this turn (created in turn 1) | changes-list',
    ]);
  });
});

// A listed entry the parser did not produce (the recap flag set by hand) is checked the same way.
it('an entry marked as a recap with no earlier turn is flagged', async () => {
  const entry: ListedChange = {
    said: 'created',
    spelling: 'c.ts',
    strict: true,
    recap: true,
    line: 'created c.ts',
  };
  const flags = await verifyChangeList({ entries: [entry], none: false, rest: '' }, await factsOf([]));
  expect(flags).toEqual([
    {
      path: 'c.ts',
      spelling: 'c.ts',
      said: 'created',
      truth: 'not touched this turn',
      source: 'changes-list',
    },
  ]);
});
