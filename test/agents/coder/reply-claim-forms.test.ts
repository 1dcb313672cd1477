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

  it('more deletion and write verbs, a "New file:" label and "x now exports …" are claims', () => {
    expect(
      claimed(
        'New file: src/z.ts\nFiles touched: src/a.ts\nI got rid of src/b.ts.\nI dropped src/c.ts.\nI trashed src/d.ts.\nI overwrote src/e.ts.\nI put the helper in src/f.ts.\nsrc/g.ts now exports 10.',
      ),
    ).toEqual([
      // The `Files touched:` line is read as a list, before the prose.
      'src/a.ts: updated',
      'src/z.ts: created',
      'src/b.ts: deleted',
      'src/c.ts: deleted',
      'src/d.ts: deleted',
      'src/e.ts: written',
      'src/f.ts: written',
      'src/g.ts: written',
    ]);
    for (const text of [
      'The new file src/h.ts is read by src/b.ts.',
      'New files would help: src/z.ts.',
      'You could put it in src/z.ts.',
      'Should src/a.ts now export 10?',
      'src/a.ts has a bug.',
    ])
      expect(claimed(text), text).toEqual([]);
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
      // Typed with a curly apostrophe, as models often write it.
      'I haven\u2019t created src/z.ts yet.',
      'I won\u2019t delete src/b.ts.',
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

describe('a negation reaches the verbs it governs and stops where a new clause begins', () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('a contrast, a semicolon or a past form after `did not` opens an affirmative clause', () => {
    for (const text of [
      'I did not touch src/a.ts, deleted src/b.ts.',
      "I didn't touch src/a.ts but deleted src/b.ts.",
      "I didn't touch src/a.ts and deleted src/b.ts instead.",
      "I didn't touch src/a.ts; deleted src/b.ts.",
      'I did not touch src/a.ts, then also deleted src/b.ts.',
      'I did not change src/a.ts, however deleted src/b.ts.',
      // After `have not` the participle could share the negation: read as a claim, to be asked about.
      'I have not touched src/a.ts, deleted src/b.ts.',
    ])
      expect(claimed(text), text).toEqual(['src/b.ts: deleted']);
    expect(claimed('I read the file that was not used and updated src/a.ts.')).toEqual(['src/a.ts: updated']);
  });

  it('a list joined by or/nor, an aside, a condition or a modal perfect keeps the negation over each verb', () => {
    for (const text of [
      'I have not touched src/a.ts or deleted src/b.ts.',
      'I have not touched the file src/a.ts or deleted src/b.ts.',
      "I haven't modified src/a.ts, deleted src/b.ts or renamed src/c.ts.",
      'I have not touched or deleted anything.',
      'I neither read nor changed src/a.ts.',
      'I have not, however, deleted src/a.ts.',
      'I have not, as you asked, deleted src/a.ts.',
      'I have not yet updated src/a.ts.',
      'You could have edited src/a.ts and deleted src/b.ts.',
      'If you touched src/a.ts and deleted src/b.ts, rerun the build.',
      'Neither src/a.ts nor src/b.ts was changed.',
      'Nothing in src/b.ts was changed.',
      'If src/a.ts was updated, rerun the build.',
    ])
      expect(claimed(text), text).toEqual([]);
  });
});

describe('summary lines, gone files, new files and exceptions are claims', () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('a change word right after a dash, arrow or colon, or alone in a parenthesis, claims the change', () => {
    expect(
      claimed('src/a.ts → updated\nsrc/b.ts -> updated\n- `src/z.ts` — added\n**src/y.ts** (new)'),
    ).toEqual(['src/a.ts: updated', 'src/b.ts: updated', 'src/z.ts: created', 'src/y.ts: created']);
    expect(claimed('Changes: src/a.ts (updated), src/z.ts (new)')).toEqual([
      'src/a.ts: updated',
      'src/z.ts: created',
    ]);
    expect(claimed('- src/z.ts: new file\n- README.md — removed (stale)')).toEqual([
      'src/z.ts: created',
      'README.md: deleted',
    ]);
  });

  it('a remark that goes on is an edit inside the file, or no claim', () => {
    expect(claimed('- src/a.ts: removed the unused import')).toEqual(['src/a.ts: written']);
    expect(claimed('- src/b.ts — removed because it was stale')).toEqual(['src/b.ts: deleted']);
    for (const text of [
      'src/a.ts: changed nothing',
      'src/a.ts — new tests would help',
      'src/a.ts: see the comment',
      'src/a.ts → see below',
      'src/a.ts (the entry point)',
    ])
      expect(claimed(text), text).toEqual([]);
  });

  it('a file said to be gone or presented as new is claimed deleted or created', () => {
    for (const text of [
      'src/b.ts no longer exists.',
      'src/b.ts is no longer there.',
      'src/b.ts does not exist anymore.',
    ])
      expect(claimed(text), text).toEqual(['src/b.ts: deleted']);
    expect(claimed("There's a new file, src/z.ts.")).toEqual(['src/z.ts: created']);
    expect(claimed('There are two new test files: src/x.test.ts and src/y.test.ts.')).toEqual([
      'src/x.test.ts: created',
      'src/y.test.ts: created',
    ]);
    for (const text of ['src/b.ts does not exist.', "If there's a new file, src/z.ts, review it."])
      expect(claimed(text), text).toEqual([]);
  });

  it('the exception to a denial of change is claimed changed', () => {
    expect(claimed('Nothing was changed except src/a.ts.')).toEqual(['src/a.ts: changed']);
    expect(claimed("I didn't touch anything but src/a.ts.")).toEqual(['src/a.ts: changed']);
    expect(claimed('I changed nothing except src/a.ts and src/b.ts.')).toEqual([
      'src/a.ts: changed',
      'src/b.ts: changed',
    ]);
    expect(claimed("I didn't delete any file other than src/b.ts.")).toEqual(['src/b.ts: deleted']);
    expect(claimed('Other than src/a.ts, no files were modified.')).toEqual(['src/a.ts: changed']);
    for (const text of ["I won't change anything except src/a.ts.", 'I read nothing except src/a.ts.'])
      expect(claimed(text), text).toEqual([]);
  });
});

describe('a summary mark, and sentences about changes that are not the writer’s', () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('a change word followed by a check mark or an emoji is still the whole remark', () => {
    expect(claimed('src/b.ts: deleted \u2705')).toEqual(['src/b.ts: deleted']);
    expect(claimed('- src/b.ts \u2014 removed \u2714\ufe0f')).toEqual(['src/b.ts: deleted']);
    expect(claimed('src/z.ts: created \u{1F389}')).toEqual(['src/z.ts: created']);
    expect(claimed('src/a.ts \u2014 removed the old import \u2705')).toEqual(['src/a.ts: written']);
  });

  it("another's change, a counterfactual or a condition claims nothing", () => {
    for (const text of [
      'src/a.ts was created by the scaffolder, so I did not touch it.',
      'The tests in src/a.test.ts were written by you.',
      'src/a.ts was modified by another process.',
      'src/a.ts was created by a previous commit.',
      "I'd have deleted src/b.ts, but it's still used.",
      'Once src/b.ts is deleted, run the build.',
      'Until src/b.ts is removed, the build fails.',
    ])
      expect(claimed(text), text).toEqual([]);
    for (const text of [
      'src/a.ts was updated by adding a guard.',
      'src/a.ts was updated by me.',
      'src/a.ts was updated by the refactor.',
    ])
      expect(claimed(text), text).toEqual(['src/a.ts: updated']);
    expect(claimed("I'd deleted src/b.ts before you asked.")).toEqual(['src/b.ts: deleted']);
  });
});

describe('more edit verbs and "now has" are claims', () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('"applied the fix to", "bumped", "wired", "simplified", "x now has/uses" claim the file', () => {
    expect(claimed('Applied the fix to src/a.ts.')).toEqual(['src/a.ts: written']);
    expect(claimed('src/a.ts now has the fix.')).toEqual(['src/a.ts: written']);
    expect(claimed('src/a.ts now uses the new helper.')).toEqual(['src/a.ts: written']);
    expect(claimed('I bumped package.json to 1.2.0.')).toEqual(['package.json: updated']);
    expect(claimed('Wired the route into src/app.ts.')).toEqual(['src/app.ts: written']);
    expect(claimed('Simplified src/a.ts.')).toEqual(['src/a.ts: updated']);
  });

  it('what a patch was applied from, and a negated or advised edit, claim nothing', () => {
    for (const text of [
      'I applied the patch from fix.diff.',
      "I haven't applied the fix to src/a.ts yet.",
      'The fix should be applied to src/a.ts.',
      'Should src/a.ts now have the fix?',
    ])
      expect(claimed(text), text).toEqual([]);
  });
});

describe("the project's history, a verb used as an adjective and a described process are no claims", () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('claims nothing when the change is dated outside the chat, describes a noun or is a process', () => {
    for (const text of [
      'The bug was introduced in src/a.ts by commit abc123.',
      'This was added in src/a.ts last week.',
      'I updated src/a.ts in the last commit.',
      'src/b.ts imports the updated helper from src/a.ts.',
      'src/gen.ts is generated at build time.',
      'src/b.ts is generated from the schema.',
    ])
      expect(claimed(text), text).toEqual([]);
  });

  it('the claim of this turn beside them still stands', () => {
    expect(claimed('I updated src/a.ts in this commit.')).toEqual(['src/a.ts: updated']);
    expect(claimed('I added the guard to src/a.ts, which was introduced in v1.2.')).toEqual([
      'src/a.ts: written',
    ]);
    expect(claimed('The updated src/a.ts exports 10.')).toEqual(['src/a.ts: updated']);
    expect(claimed('src/a.ts is updated to export 10.')).toEqual(['src/a.ts: updated']);
    expect(claimed('src/b.ts is deleted.')).toEqual(['src/b.ts: deleted']);
  });
});

describe('a change heading with its list on the same line', () => {
  const claimed = (text: string) => mentionedChanges(text).map((claim) => `${claim.spelling}: ${claim.said}`);

  it('names its files as changed, or as its verbs and remarks say', () => {
    expect(claimed('Changes: src/a.ts, src/b.ts')).toEqual(['src/a.ts: changed', 'src/b.ts: changed']);
    expect(claimed('Summary of changes: src/a.ts')).toEqual(['src/a.ts: changed']);
    expect(claimed('Files modified: src/a.ts')).toEqual(['src/a.ts: updated']);
    expect(claimed('~~src/b.ts~~ (removed)')).toEqual(['src/b.ts: deleted']);
    for (const text of ['Changes: none', 'Changes: see src/a.ts for details'])
      expect(claimed(text), text).toEqual([]);
  });
});
