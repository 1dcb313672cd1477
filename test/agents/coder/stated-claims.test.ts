import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../../src/agents/coder/chat-record.js';
import { countedChangeFlags } from '../../../src/agents/coder/counted-changes.js';
import { mentionedChanges } from '../../../src/agents/coder/mentioned-changes.js';

const said = (text: string) => mentionedChanges(text).map((m) => `${m.spelling}:${m.said}`);
const one: FileChange[] = [{ path: 'src/a.ts', change: 'updated', via: 'e1' }];

describe('counted changes', () => {
  it('flags a count the changes report does not match, in digits or words', () => {
    expect(countedChangeFlags('I updated 3 files.', one)).toHaveLength(1);
    expect(countedChangeFlags('Edited two files.', one)[0]?.truth).toBe('1 file changed this turn');
    expect(countedChangeFlags('I created 2 new files.', one)[0]?.truth).toBe('0 files created this turn');
    // A label of new files counts the creates, and says so.
    expect(countedChangeFlags('New files: 2', one)[0]?.truth).toBe('0 files created this turn');
  });
  it('reads a count that opens its sentence, passive ("3 files changed", "Two files were updated")', () => {
    expect(countedChangeFlags('3 files changed.', one)[0]?.truth).toBe('1 file changed this turn');
    expect(countedChangeFlags('Two files were updated: a.ts and b.ts.', one)).toHaveLength(1);
    expect(countedChangeFlags('- 2 new files created, so you can merge.', one)[0]?.truth).toBe(
      '0 files created this turn',
    );
    expect(countedChangeFlags('In total, 3 files were modified.', one)).toHaveLength(1);
    expect(countedChangeFlags('1 file changed.', one)).toEqual([]);
    // Not a claim about this turn's files: inside a sentence, or not in the past.
    expect(countedChangeFlags('I read the 5 files changed by the last commit.', one)).toEqual([]);
    expect(countedChangeFlags('3 files were not changed.', one)).toEqual([]);
    expect(countedChangeFlags('3 files should be updated next.', one)).toEqual([]);
  });
  it('accepts a true count, and claims nothing in negation, advice, questions or code', () => {
    expect(countedChangeFlags('I updated 1 file.', one)).toEqual([]);
    expect(countedChangeFlags('I did not edit two files.', one)).toEqual([]);
    expect(countedChangeFlags('I haven\u2019t edited two files.', one)).toEqual([]);
    expect(countedChangeFlags('You could have edited two files.', one)).toEqual([]);
    expect(countedChangeFlags('Should I say I updated 3 files?', one)).toEqual([]);
    expect(countedChangeFlags('```\nupdated 3 files\n```', one)).toEqual([]);
  });
  it('reads counts with more verbs, words between the count and "files", a label, a span and "N other files"', () => {
    for (const text of [
      'Updated three source files.',
      'I made changes to 3 files.',
      'I edited 3 of the files.',
      'I refactored 3 files.',
      'I fixed 2 files.',
      'Edited 5 TypeScript files.',
      'I wrote 2 new test files.',
      '3 files were refactored.',
      'Files changed: 3',
      '**Modified files:** 3',
      'This touches 4 files.',
      'Changes span 3 files.',
      'The diff covers 3 files.',
      'I updated src/a.ts and 2 other files.',
    ])
      expect(countedChangeFlags(text, one), text).toHaveLength(1);
  });
  it("holds those forms true when the count is, and reads no count that is not this turn's", () => {
    const three: FileChange[] = [
      { path: 'src/a.ts', change: 'updated', via: 'e1' },
      { path: 'src/b.ts', change: 'updated', via: 'e2' },
      { path: 'src/c.ts', change: 'created', via: 'e3' },
    ];
    for (const text of [
      'I refactored 3 files.',
      'Files changed: 3',
      'New files: 1',
      'This touches 3 files.',
      'I updated src/a.ts and 2 other files.',
      'I updated src/a.ts and 1 other file.',
      // Not counts of this turn's changes.
      'I read 7 files.',
      'I fixed 2 bugs in 5 files.',
      'The tests in 4 files cover this.',
      'The refactor will touch 6 files.',
      'It affects 9 files in the old branch.',
      'The changes to 2 files in the README are described below.',
    ])
      expect(countedChangeFlags(text, three), text).toEqual([]);
  });
  it('"added" and files called new count the creates; "both" counts two', () => {
    const two: FileChange[] = [
      { path: 'src/a.ts', change: 'updated', via: 'e1' },
      { path: 'src/b.ts', change: 'updated', via: 'e2' },
    ];
    for (const text of [
      'I added 2 new files.',
      'I added 2 files.',
      'I wrote 2 new test files.',
      '2 new files were added.',
    ])
      expect(countedChangeFlags(text, two)[0]?.truth, text).toBe('0 files created this turn');
    expect(countedChangeFlags('I updated both files.', one)).toHaveLength(1);
    expect(countedChangeFlags('I updated both files.', two)).toEqual([]);
  });
  it('an edit verb may count the edited files only, beside a create said apart', () => {
    const three: FileChange[] = [
      { path: 'src/a.ts', change: 'updated', via: 'e1' },
      { path: 'src/b.ts', change: 'updated', via: 'e2' },
      { path: 'src/z.ts', change: 'created', via: 'e3' },
    ];
    for (const text of ['I created 1 file and edited 2 files.', 'I updated 2 files and created src/z.ts.'])
      expect(countedChangeFlags(text, three), text).toEqual([]);
    expect(countedChangeFlags('I edited 1 file.', three)).toHaveLength(1);
  });
  it('a negation reaches the counted verb it governs only: a contrast or a past form after `did not` is a count', () => {
    expect(countedChangeFlags("I didn't touch src/b.ts but updated 3 files.", one)).toHaveLength(1);
    expect(countedChangeFlags('I did not touch src/b.ts, updated 3 files.', one)).toHaveLength(1);
    expect(countedChangeFlags('I neither read nor edited two files.', one)).toEqual([]);
    expect(countedChangeFlags('I have not opened the config or edited two files.', one)).toEqual([]);
  });
});

describe('the prose net, more forms', () => {
  it('reads French, Spanish, Portuguese, Italian and German past participles', () => {
    expect(said("J'ai créé le fichier a.txt.")).toEqual(['a.txt:created']);
    expect(said('He borrado el archivo a.txt.')).toEqual(['a.txt:deleted']);
    expect(said('O arquivo a.txt foi removido.')).toEqual(['a.txt:deleted']);
    expect(said('Ho modificato a.txt.')).toEqual(['a.txt:updated']);
    expect(said('Ich habe die Datei a.txt gelöscht.')).toEqual(['a.txt:deleted']);
  });
  it('claims nothing in their negations', () => {
    expect(said("Je n'ai pas supprimé a.txt.")).toEqual([]);
    expect(said('No he borrado a.txt.')).toEqual([]);
    expect(said('Ich habe a.txt nicht gelöscht.')).toEqual([]);
    expect(said('Não foi removido a.txt.')).toEqual([]);
    expect(said('O arquivo a.txt não foi removido.')).toEqual([]);
  });
  it('a contrast of their own opens an affirmative clause after a negation', () => {
    expect(said("Je n'ai pas touché a.ts mais supprimé b.ts.")).toEqual(['b.ts:deleted']);
    expect(said('No he modificado a.ts sino borrado b.ts.')).toEqual(['b.ts:deleted']);
    expect(said('Ich habe a.ts nicht geändert aber b.ts gelöscht.')).toEqual(['b.ts:deleted']);
    expect(said('Ich habe a.ts nicht geändert, jedoch b.ts gelöscht.')).toEqual(['b.ts:deleted']);
    expect(said('Non ho modificato a.ts, però eliminato b.ts.')).toEqual(['b.ts:deleted']);
    // French `ma` is "my", no contrast.
    expect(said("Je n'ai pas modifié ma config dans a.ts.")).toEqual([]);
  });
  it('Italian `ma` and Portuguese `mas` are contrasts before a word of their own language only', () => {
    expect(said("Non l'ho modificato ma eliminato b.ts.")).toEqual(['b.ts:deleted']);
    expect(said("Non l'ho toccato, ma l'ho eliminato: b.ts.")).toEqual(['b.ts:deleted']);
    // The contrast detaches what follows from the verb before it.
    expect(said('Ho modificato a.ts ma non b.ts.')).toEqual(['a.ts:updated']);
    expect(said('Foi atualizado a.ts mas não b.ts.')).toEqual(['a.ts:updated']);
    // French `ma` ("my") and Spanish `mas` ("más") before a noun are no contrast.
    expect(said("J'ai modifié ma config dans a.ts.")).toEqual(['a.ts:updated']);
    expect(said('He modificado mas de un archivo: a.ts.')).toEqual(['a.ts:updated']);
    expect(said("Je n'ai pas supprimé ma copie de a.ts.")).toEqual([]);
  });
  it('reads "is gone", reverts, file:// URLs and a rename in a table cell', () => {
    expect(said('README.md is gone.')).toEqual(['README.md:deleted']);
    expect(said('README.md is not gone. Is a.txt gone?')).toEqual([]);
    expect(said('I reverted src/b.ts.')).toEqual(['src/b.ts:restored']);
    expect(said('I updated file:///p/src/caf%C3%A9.ts.')).toEqual(['/p/src/café.ts:updated']);
    expect(said('| src/b.ts | renamed to lib/b.ts |')).toEqual(['src/b.ts:moved', 'lib/b.ts:moved']);
  });
  it('advice after a change verb claims nothing about the advised file', () => {
    expect(said('I updated src/a.ts; you may want to review README.md.')).toEqual(['src/a.ts:updated']);
    expect(said('To update README.md, run npm run docs.')).toEqual([]);
  });
});
