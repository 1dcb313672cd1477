import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mentionedChanges } from '../../../src/agents/coder/mentioned-changes.js';
import { callTool, say } from '../../../src/testing/scripted-model.js';
import { judgedTurn, sampleProject } from './coder-fixtures.js';

/** The sample project with a JavaScript file to convert: src/c.js. */
function withJs(): string {
  const root = sampleProject();
  writeFileSync(join(root, 'src', 'c.js'), 'export const c = 3;\n');
  return root;
}

describe('a conversion (`converted src/c.js to TypeScript`) claims a change of each file it names', () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('the source, and a named destination, are claimed changed (any kind of change fits)', () => {
    for (const text of [
      'I converted src/c.js to TypeScript.',
      'Converted src/c.js to TS.',
      'I ported src/c.js to TypeScript.',
      'I read src/c.js and converted it to TypeScript.',
      'I converted the helper in src/c.js to TypeScript.',
      'src/c.js: converted to TypeScript',
    ])
      expect(claimed(text), text).toEqual(['src/c.js: changed']);
    expect(claimed('I converted src/c.js to src/c.ts.')).toEqual(['src/c.js: changed', 'src/c.ts: changed']);
    for (const text of [
      'I did not convert src/c.js to TypeScript.',
      'You could convert src/c.js to TypeScript.',
    ])
      expect(claimed(text), text).toEqual([]);
  });

  it('a conversion the ledger does not show is flagged: the file only read, or a TS copy beside an untouched JS file', async () => {
    const read = await judgedTurn(withJs(), [
      callTool('fs_read', { path: 'src/c.js' }),
      say('I converted src/c.js to TypeScript.'),
    ]);
    expect(read.result.status).toBe('partial');
    expect(read.result.flags).toMatchObject([
      { path: 'src/c.js', said: 'changed', truth: 'unchanged this turn (only read)' },
    ]);
    const copy = await judgedTurn(withJs(), [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c: number = 3;\n' }),
      say('I converted src/c.js to TypeScript.'),
    ]);
    expect(copy.result.flags).toMatchObject([
      { path: 'src/c.js', said: 'changed', truth: 'not touched this turn' },
    ]);
  });

  it('honest twins: a created c.ts and a deleted c.js, a move then an edit, or an edit in place', async () => {
    const replaced = await judgedTurn(withJs(), [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c: number = 3;\n' }),
      callTool('fs_delete', { path: 'src/c.js' }),
      say('I converted src/c.js to src/c.ts.'),
    ]);
    expect(replaced.result).toMatchObject({ status: 'success', flags: [] });
    const moved = await judgedTurn(withJs(), [
      callTool('fs_move', { from: 'src/c.js', to: 'src/c.ts' }),
      callTool('fs_edit', { path: 'src/c.ts', oldString: 'c = 3', newString: 'c: number = 3' }),
      say('I converted src/c.js to TypeScript.'),
    ]);
    expect(moved.result).toMatchObject({ status: 'success', flags: [] });
    const inPlace = await judgedTurn(withJs(), [
      callTool('fs_edit', { path: 'src/c.js', oldString: 'export', newString: '// @ts-check\nexport' }),
      say('I converted src/c.js to TypeScript.'),
    ]);
    expect(inPlace.result).toMatchObject({ status: 'success', flags: [] });
  });
});
