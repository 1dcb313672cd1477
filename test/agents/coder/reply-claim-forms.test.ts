import { describe, expect, it } from 'vitest';
import { mentionedChanges } from '../../../src/agents/coder/mentioned-changes.js';
import { callTool, say } from '../../../src/testing/scripted-model.js';
import { judgedTurn, sampleProject } from './coder-fixtures.js';

describe('the reply checker reads common claim forms', () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('more verbs, a table, a checklist and a Windows path are claims', () => {
    expect(
      claimed(
        "I implemented src/b.ts.\nI introduced src/c.ts.\nI made src/d.ts.\nI authored src/i.ts.\nI've set up src/f.ts.\nI cleaned up src/a.ts.\nsrc/h.ts is new.",
      ),
    ).toEqual([
      'src/b.ts: written',
      'src/c.ts: written',
      'src/d.ts: written',
      'src/i.ts: created',
      'src/f.ts: created',
      'src/a.ts: updated',
      'src/h.ts: created',
    ]);
    expect(claimed('| file | change |\n|---|---|\n| src/a.ts | updated |\n| src/b.ts | created |')).toEqual([
      'src/a.ts: updated',
      'src/b.ts: created',
    ]);
    expect(claimed('\u2705 src/b.ts\n- [x] src/c.ts')).toEqual(['src/b.ts: changed', 'src/c.ts: changed']);
    expect(claimed('I updated src\\a.ts.')).toEqual(['src/a.ts: updated']);
  });

  it('prose that names a path without claiming a change is no claim', () => {
    for (const text of [
      'I made sure src/a.ts still compiles.',
      'The new src/a.ts export is read by src/b.ts.',
      'See src/a.ts for the details; the table is in src/b.ts.',
      'src/a.ts: new tests would help here.',
      '\u2705 All tests pass.',
      'The logs are under C:\\temp.',
    ])
      expect(claimed(text), text).toEqual([]);
  });

  it('a table reply that claims an untouched file is flagged, and the turn is partial', async () => {
    const { result, printed } = await judgedTurn(sampleProject(), [
      callTool('fs_read', { path: 'src/a.ts' }),
      say('| file | change |\n|---|---|\n| src/a.ts | updated |'),
    ]);
    expect(result.status).toBe('partial');
    expect(printed).toContain(
      'FLAGGED: the reply says src/a.ts was updated; the ledger shows: unchanged this turn (only read).',
    );
  });
});

describe("a negation or intent counts only in the claim's own clause", () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('an opening clause of its own does not excuse the claim after it', () => {
    expect(claimed('No problem, I created src/z.ts.')).toEqual(['src/z.ts: created']);
    expect(claimed('To be safe, I deleted src/a.ts.')).toEqual(['src/a.ts: deleted']);
    expect(claimed('No worries - I updated src/a.ts.')).toEqual(['src/a.ts: updated']);
    expect(claimed('Nothing else was needed, so I deleted src/a.ts.')).toEqual(['src/a.ts: deleted']);
    expect(claimed("I couldn't run the tests, but I created src/z.ts.")).toEqual(['src/z.ts: created']);
  });

  it('a negation that reaches over an aside, or in the clause itself, still makes no claim', () => {
    for (const text of [
      'I did not, however, delete src/a.ts.',
      'I did not, as you asked, delete src/a.ts.',
      'No, I did not create src/z.ts.',
      'If you want, I can create src/z.ts.',
      'You should, once reviewed, delete src/a.ts.',
    ])
      expect(claimed(text), text).toEqual([]);
  });

  it('"No problem, I created …" for a file never written is flagged, and so is its count', async () => {
    const { result, printed } = await judgedTurn(sampleProject(), [
      callTool('fs_read', { path: 'src/a.ts' }),
      say('No problem, I created src/z.ts. To be safe, I updated 2 files.'),
    ]);
    expect(result.status).toBe('partial');
    expect(printed).toContain(
      'FLAGGED: the reply says src/z.ts was created; the ledger shows: not touched this turn.',
    );
    expect(printed).toMatch(/FLAGGED: the reply says .*2 files/);
  });
});

describe('claims in the texts a turn shows before its reply', () => {
  it('a false claim in an intermediate message is flagged though the final reply says only "Done."', async () => {
    const { result, printed, end } = await judgedTurn(sampleProject(), [
      callTool('fs_read', { path: 'src/a.ts' }, 'I deleted src/a.ts and created src/z.ts.'),
      say('Done.'),
    ]);
    expect(result.flags.map((flag) => `${flag.path}: ${flag.said}`)).toEqual([
      'src/a.ts: deleted',
      'src/z.ts: created',
    ]);
    expect(result.status).toBe('partial');
    expect(end).toMatchObject({ status: 'partial' });
    expect(printed).toContain(
      'FLAGGED: the reply says src/z.ts was created; the ledger shows: not touched this turn.',
    );
  });

  it('progress notes that state intent, and true claims, raise no flag', async () => {
    const { result } = await judgedTurn(sampleProject(), [
      callTool(
        'fs_read',
        { path: 'src/a.ts' },
        'Let me read src/a.ts first; I will then update it and add src/c.ts.',
      ),
      callTool('fs_write', { path: 'src/c.ts', content: 'x\n' }, 'I am going to create src/c.ts now.'),
      callTool('fs_read', { path: 'src/c.ts' }, 'I created src/c.ts.'),
      say('Done: I created src/c.ts.'),
    ]);
    expect(result).toMatchObject({ status: 'success', flags: [] });
  });
});
