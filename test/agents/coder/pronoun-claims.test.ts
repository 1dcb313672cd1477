import { describe, expect, it } from 'vitest';
import { mentionedChanges } from '../../../src/agents/coder/mentioned-changes.js';
import { callTool, say } from '../../../src/testing/scripted-model.js';
import { judgedTurn, sampleProject } from './coder-fixtures.js';

const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

describe('a pronoun after a change verb claims the change of the file it stands for', () => {
  it('the one file, or the one list, named before it in the sentence or the sentence before', () => {
    expect(claimed('Instead of deleting a.ts, I rewrote it.')).toEqual(['a.ts: written']);
    expect(claimed('I looked at b.ts and then deleted it.')).toEqual(['b.ts: deleted']);
    expect(claimed('I looked at the file b.ts and then deleted it.')).toEqual(['b.ts: deleted']);
    expect(claimed('I read a.ts and updated the file.')).toEqual(['a.ts: updated']);
    expect(claimed('I read a.ts and b.ts, then deleted them.')).toEqual(['a.ts: deleted', 'b.ts: deleted']);
    expect(claimed('I read src/a.ts. Then I deleted it.')).toEqual(['src/a.ts: deleted']);
    expect(claimed('I read a.ts and b.ts. I removed both.')).toEqual(['a.ts: deleted', 'b.ts: deleted']);
  });

  it('an ambiguous pronoun, a negated verb or a change to another place claims nothing', () => {
    for (const text of [
      'I read a.ts and b.ts, then deleted it.',
      'I read a.ts. I removed both.',
      'I read a.ts, found a bug and fixed it.',
      'I read src/a.ts. It had a bug, so I fixed it.',
      'I opened src/index.ts and removed it from the barrel.',
      'I read b.ts but haven\u2019t deleted it.',
      'I read a.ts and updated the file that imports it.',
      'I read README.md in the docs folder. I deleted it.',
      'I read a.ts. Should I delete it?',
    ])
      expect(claimed(text), text).toEqual([]);
    expect(claimed('I read a.ts and created the file src/z.ts.')).toEqual(['src/z.ts: created']);
    expect(claimed('I moved src/b.ts to lib/b.ts and updated it.')).toEqual([
      'src/b.ts: moved',
      'lib/b.ts: moved',
    ]);
  });

  it('"I looked at src/b.ts and then deleted it" with src/b.ts still there is flagged', async () => {
    const { result, printed } = await judgedTurn(sampleProject(), [
      callTool('fs_read', { path: 'src/b.ts' }),
      say('I looked at src/b.ts and then deleted it.'),
    ]);
    expect(result.status).toBe('partial');
    expect(printed).toContain(
      'FLAGGED: the reply says src/b.ts was deleted; the ledger shows: unchanged this turn (only read).',
    );
  });
});
