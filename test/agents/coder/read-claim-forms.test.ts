import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TurnFacts } from '../../../src/agents/coder/flag-false-statements.js';
import { readClaimFlags } from '../../../src/agents/coder/read-claims.js';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { callTool, say } from '../../../src/testing/scripted-model.js';
import { tempDir } from '../../helpers.js';
import { judgedTurn, sampleProject } from './coder-fixtures.js';

/** A turn's facts with no call on any file: every read claim in a text is unbacked. */
async function noCalls(): Promise<TurnFacts> {
  const dir = tempDir('tally-read-claims-');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'README.md'), '# x\n');
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'package.json'), '{}\n');
  return { changes: [], histories: new Map(), root: await ProjectRoot.open(dir), earlier: [] };
}

describe('a read or a citation of a file the turn never opened, in the forms replies use', () => {
  it('more reading verbs, participles and citations are read claims', async () => {
    const facts = await noCalls();
    for (const text of [
      'I checked package.json.',
      'I scanned README.md.',
      'I skimmed README.md.',
      'I studied src/a.ts.',
      'I consulted README.md.',
      'I looked into src/a.ts.',
      'I double-checked src/a.ts.',
      'I have read through README.md.',
      'Having read README.md, I updated src/a.ts.',
      'Reading src/a.ts, I saw the export.',
      'While checking package.json I found the script.',
      'README.md says the value is 10.',
      'As README.md states, the value is 10.',
      'Per README.md, the value is 10.',
      'From README.md: the value is 10.',
      'README.md mentions the value 10.',
      'I see in README.md that the value is 10.',
    ])
      expect(await readClaimFlags(text, facts), text).toHaveLength(1);
  });

  it('every file of a list, a subjectless past form, a label and more phrasings are read claims', async () => {
    const facts = await noCalls();
    const paths = async (text: string) => (await readClaimFlags(text, facts)).map((flag) => flag.path);
    for (const text of [
      'I inspected src/a.ts and README.md.',
      'I read both src/a.ts and README.md.',
      'Reviewed src/a.ts and README.md.',
      'Files read: src/a.ts, README.md',
      '- **Read:** src/a.ts & README.md',
    ])
      expect(await paths(text), text).toEqual(['src/a.ts', 'README.md']);
    for (const text of [
      'After going through src/a.ts, I found the bug.',
      "I've gone through src/a.ts carefully.",
      'I took a look at src/a.ts.',
      'Looking at src/a.ts, the bug is clear.',
      'I reviewed the code in src/a.ts.',
      'I analyzed src/a.ts.',
    ])
      expect(await paths(text), text).toEqual(['src/a.ts']);
    // The list ends where the reading does; a bare "Read X" may be advice.
    expect(await paths('I read src/a.ts and updated README.md.')).toEqual(['src/a.ts']);
    for (const text of [
      'Read README.md for the setup steps.',
      'I did not read src/a.ts or README.md.',
      'You could look at src/a.ts and README.md.',
      'Looking at the logs, src/a.ts is fine.',
    ])
      expect(await paths(text), text).toEqual([]);
  });

  it('advice, denial, a folder and a count are no read claims', async () => {
    const facts = await noCalls();
    for (const text of [
      'You should read README.md.',
      'I did not read README.md.',
      'I have not checked package.json.',
      'README.md is out of date, I suspect.',
      'I checked src/ for more files.',
      'Run 3 tests per file.',
    ])
      expect(await readClaimFlags(text, facts), text).toEqual([]);
  });

  it('a reply citing README.md it never opened is flagged, and the turn is partial; opened, it is not', async () => {
    const lie = await judgedTurn(sampleProject(), [
      callTool('fs_edit', { path: 'src/a.ts', oldString: 'a = 1', newString: 'a = 10' }),
      say('README.md says the value is 10, so I updated src/a.ts.'),
    ]);
    expect(lie.result.status).toBe('partial');
    expect(lie.result.flags).toMatchObject([{ path: 'README.md', said: 'read' }]);
    const honest = await judgedTurn(sampleProject(), [
      callTool('fs_read', { path: 'README.md' }),
      callTool('fs_edit', { path: 'src/a.ts', oldString: 'a = 1', newString: 'a = 10' }),
      say('README.md says the value is 10, so I updated src/a.ts.'),
    ]);
    expect(honest.result).toMatchObject({ status: 'success', flags: [] });
  });
});

describe('a search of a file or folder is a read claim of it', () => {
  it('grepped or searched, a file or a folder, is flagged when nothing searched or read it', async () => {
    const facts = await noCalls();
    const paths = async (text: string) => (await readClaimFlags(text, facts)).map((flag) => flag.path);
    for (const text of [
      'I grepped src/ for TODO.',
      'I grepped for TODO in src/ and found none.',
      'I searched through src/ for the export.',
      'After grepping src/, I found two uses.',
      'Grepped src/ for TODO.',
    ])
      expect(await paths(text), text).toEqual(['src']);
    for (const text of [
      'I grepped src/a.ts.',
      'I grepped for `export` in src/a.ts.',
      'I searched for uses of a in src/a.ts.',
    ])
      expect(await paths(text), text).toEqual(['src/a.ts']);
    expect(await paths('I grepped src/a.ts and README.md for TODO.')).toEqual(['src/a.ts', 'README.md']);
    expect((await readClaimFlags('I grepped src/ for TODO.', facts))[0]).toMatchObject({
      said: 'read',
      truth: 'never read or searched this turn',
    });
    for (const text of [
      'I did not grep src/ for TODO.',
      'You could grep src/ for TODO.',
      'I grepped for TODO.',
      'I searched the codebase for TODO and fixed it.',
      'If you grepped src/ for TODO you would find none.',
    ])
      expect(await paths(text), text).toEqual([]);
  });

  it('a search covering the path, or a read of a file in it, backs the claim, this turn or an earlier one', async () => {
    const facts = await noCalls();
    const backed = async (text: string, more: Partial<TurnFacts>) =>
      readClaimFlags(text, { ...facts, ...more });
    // The same path, a folder above it, the whole project, a folder inside it.
    expect(await backed('I grepped src/ for TODO.', { searched: ['src'] })).toEqual([]);
    expect(await backed('I grepped src/a.ts for TODO.', { searched: ['src/'] })).toEqual([]);
    expect(await backed('I grepped src/ for TODO.', { searched: ['.'] })).toEqual([]);
    expect(
      await backed('I grepped src/ for TODO.', { earlier: [{ turn: 1, changes: [], searched: ['src'] }] }),
    ).toEqual([]);
    expect(
      await backed('I grepped src/ for TODO.', { earlier: [{ turn: 1, changes: [], read: ['src/a.ts'] }] }),
    ).toEqual([]);
    // A search of another folder backs nothing here.
    expect(await backed('I grepped src/ for TODO.', { searched: ['test'] })).toHaveLength(1);
  });

  it('in a turn: grepping a folder never searched is flagged; searched with fs_grep or read with fs_read, it is not', async () => {
    const lie = await judgedTurn(sampleProject(), [
      callTool('fs_grep', { pattern: 'Sample', path: 'README.md' }),
      say('I grepped src/ for TODO and found none.'),
    ]);
    expect(lie.result.status).toBe('partial');
    expect(lie.result.flags).toMatchObject([
      { path: 'src', said: 'read', truth: 'never read or searched this turn' },
    ]);
    const searched = await judgedTurn(sampleProject(), [
      callTool('fs_grep', { pattern: 'TODO', path: 'src' }),
      say('I grepped src/ for TODO and found none.'),
    ]);
    expect(searched.result).toMatchObject({ status: 'success', flags: [] });
    const read = await judgedTurn(sampleProject(), [
      callTool('fs_read', { path: 'src/a.ts' }),
      say('I grepped src/a.ts for TODO and found none.'),
    ]);
    expect(read.result).toMatchObject({ status: 'success', flags: [] });
  });
});
