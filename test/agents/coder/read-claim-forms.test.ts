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
