import { describe, expect, it } from 'vitest';
import { mentionedChanges } from '../../../src/agents/coder/mentioned-changes.js';
import { callTool, say } from '../../../src/testing/scripted-model.js';
import { judgedTurn, sampleProject } from './coder-fixtures.js';

const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

describe('"added" as a file\'s status says the file is new', () => {
  it('a remark, a label, a table cell, a passive or a direct object: created', () => {
    for (const text of [
      'src/z.ts — added',
      '**src/z.ts** (added)',
      'Added: src/z.ts',
      '- **Added:** src/z.ts',
      'Added files: src/z.ts',
      'New: src/z.ts',
      '| src/z.ts | added |',
      'src/z.ts was added.',
      'I added src/z.ts.',
      'src/z.ts — hinzugefügt',
    ])
      expect(claimed(text), text).toEqual(['src/z.ts: created']);
    expect(claimed('- Added: src/y.ts, src/z.ts')).toEqual(['src/y.ts: created', 'src/z.ts: created']);
  });

  it('something added to or inside a file is an edit of it', () => {
    for (const text of [
      'I added a test to src/a.ts.',
      'src/a.ts: added tests',
      'src/a.ts — added to the barrel',
      'I added src/a.ts to the include list.',
      "I added src/a.ts's helper.",
      'src/a.ts was added to the barrel.',
    ])
      expect(claimed(text), text).toEqual(['src/a.ts: written']);
    expect(claimed("What's new: src/a.ts exports 10.")).toEqual([]);
  });

  it('"src/a.ts — added" for a file that existed and was only edited is flagged', async () => {
    const { result, printed } = await judgedTurn(sampleProject(), [
      callTool('fs_edit', { path: 'src/a.ts', oldString: '= 1;', newString: '= 10;' }),
      say('Summary:\n- src/a.ts — added'),
    ]);
    expect(result.status).toBe('partial');
    expect(printed).toContain('FLAGGED: the reply says src/a.ts was created; the ledger shows: updated.');
  });

  it('"Added: src/z.ts" for a file the turn created is no flag', async () => {
    const { result } = await judgedTurn(sampleProject(), [
      callTool('fs_write', { path: 'src/z.ts', content: 'export const z = 0;\n' }),
      say('Added: src/z.ts'),
    ]);
    expect(result.flags).toEqual([]);
    expect(result.status).toBe('success');
  });
});
