import { describe, expect, it } from 'vitest';
import { flagLine } from '../../../src/surfaces/report/flag-line.js';
import { callTool, say } from '../../../src/testing/scripted-model.js';
import { judgedTurn, sampleProject } from './coder-fixtures.js';

const finish = (summary: string, claims: unknown[]) => callTool('finish', { summary, claims });

describe('a Coder turn that ends with finish', () => {
  it('checks the finish summary like the reply: a file it names but never touched is flagged', async () => {
    const root = sampleProject();
    const { result, printed, end } = await judgedTurn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      finish('I created src/c.ts and src/d.ts, and deleted src/b.ts. All tests pass.', [
        { target: 'src/c.ts', effect: 'created' },
      ]),
    ]);
    expect(result.status).toBe('partial');
    expect(result.flags.map((flag) => `${flag.statement ?? flag.path}: ${flag.said}`)).toEqual([
      'src/d.ts: created',
      'src/b.ts: deleted',
      // No Coder tool runs a command: a test run it reports is flagged too.
      'All tests pass.: run',
    ]);
    expect(printed).toContain(
      'FLAGGED: the finish summary says src/d.ts was created; the ledger shows: not touched this turn.',
    );
    expect(printed).toContain(
      `FLAGGED: the finish summary says "All tests pass."; the ledger shows: this turn ran no test, build or lint: the Coder's tools only read and write files.`,
    );
    expect(printed).toContain('Status: partial');
    expect(end).toMatchObject({
      status: 'partial',
      flags: [{ path: 'src/d.ts' }, { path: 'src/b.ts' }, { statement: 'All tests pass.' }],
    });
    // The report and `runs show` read the end entry's flags with the same words.
    expect(flagLine((end.flags as unknown[])[0])).toBe(
      'the finish summary says src/d.ts was created; the ledger shows: not touched this turn',
    );
    expect(String(end.summary)).toMatch(/^Partly done/);
  });

  it('a test report spelled as a label and its verdict ("Tests: 12 passed") is flagged like a sentence', async () => {
    const { result, printed } = await judgedTurn(sampleProject(), [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      say('Created src/c.ts.\n\nTests: 12 passed, 0 failed.\nLint: \u2705'),
    ]);
    expect(result.status).toBe('partial');
    expect(result.flags.map((flag) => flag.statement)).toEqual([
      'Tests: 12 passed, 0 failed.',
      'Lint: \u2705',
    ]);
    expect(printed).toContain('FLAGGED: the reply says "Tests: 12 passed, 0 failed."');
  });

  it('a reply that says the tests pass, in a turn that ran none, is flagged: partial, in the CLI, end entry and report', async () => {
    const root = sampleProject();
    const { result, printed, end } = await judgedTurn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      say('Created src/c.ts. I ran the tests and all 12 pass.'),
    ]);
    expect(result.status).toBe('partial');
    expect(result.flags).toEqual([
      expect.objectContaining({ statement: 'I ran the tests and all 12 pass.' }),
    ]);
    expect(printed).toContain('FLAGGED: the reply says "I ran the tests and all 12 pass."');
    expect(flagLine((end.flags as unknown[])[0])).toBe(
      `the reply says "I ran the tests and all 12 pass."; the ledger shows: this turn ran no test, build or lint: the Coder's tools only read and write files`,
    );
    // Said as advice, it states nothing.
    const advised = await judgedTurn(sampleProject(), [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      say('Created src/c.ts. Run `npm test` to check that the tests pass.'),
    ]);
    expect(advised.result).toMatchObject({ status: 'success', flags: [] });
  });

  it('a true finish summary raises no flag', async () => {
    const root = sampleProject();
    const { result, end } = await judgedTurn(root, [
      // The read is made: a read claim in the summary is held to the ledger too.
      callTool('fs_read', { path: 'src/a.ts' }),
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      finish('I read src/a.ts, then created src/c.ts.', [{ target: 'src/c.ts', effect: 'created' }]),
    ]);
    expect(result).toMatchObject({ status: 'success', flags: [] });
    expect(end).toMatchObject({ status: 'success' });
  });

  it('a finish summary that claims a read never made is flagged', async () => {
    const root = sampleProject();
    const { result } = await judgedTurn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      finish('I read src/a.ts, then created src/c.ts.', [{ target: 'src/c.ts', effect: 'created' }]),
    ]);
    expect(result.status).toBe('partial');
    expect(result.flags).toMatchObject([{ path: 'src/a.ts', said: 'read', source: 'finish' }]);
  });
});

describe('a finish claim of a change is checked by content, like the changes report', () => {
  const editA = (from: string, to: string) =>
    callTool('fs_edit', { path: 'src/a.ts', oldString: from, newString: to });

  it('an edit undone is no change: the claim is dropped, and the table and verdict agree', async () => {
    const root = sampleProject();
    const { result, printed, end } = await judgedTurn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      editA('a = 1', 'a = 2'),
      editA('a = 2', 'a = 1'),
      finish('Created src/c.ts and changed src/a.ts.', [
        { target: 'src/c.ts', effect: 'created' },
        { target: 'src/a.ts', effect: 'changed' },
      ]),
    ]);
    expect(result.changes.map((row) => `${row.change} ${row.path}`)).toEqual(['created src/c.ts']);
    expect(result.status).toBe('partial');
    expect(end).toMatchObject({ status: 'partial', verified: 1, dropped: 1 });
    expect(printed).not.toContain('Verified 2 items');
  });

  it('a rewrite with the same bytes is no update: a finish that claims only it is rejected', async () => {
    const root = sampleProject();
    const { result, end } = await judgedTurn(root, [
      callTool('fs_write', { path: 'src/a.ts', content: 'export const a = 1;\n' }),
      finish('Updated src/a.ts.', [{ target: 'src/a.ts', effect: 'updated' }]),
      say('I could not change src/a.ts: it already held that content.'),
    ]);
    expect(result.changes).toEqual([]);
    expect(result.status).not.toBe('success');
    expect(end.status).not.toBe('success');
    const rejected = result.tools.find((call) => call.tool === 'finish');
    expect(JSON.stringify(rejected)).toContain('holds the same content at the end of this turn as before it');
  });
});

describe('a Coder turn that ends without a finish or an answer', () => {
  it('an interrupted turn names the files it changed, and is partial, not "nothing made"', async () => {
    const root = sampleProject();
    const controller = new AbortController();
    const { result, printed, end } = await judgedTurn(
      root,
      [
        callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
        () => {
          controller.abort('interrupted by SIGTERM');
          return { text: 'Working on it.' };
        },
      ],
      { signal: controller.signal },
    );
    expect(result).toMatchObject({ endingReason: 'aborted', status: 'partial' });
    expect(result.summary).toMatch(/^Aborted: 1 item made before the interrupt is backed by the ledger\. /);
    expect(result.summary).toContain('Made: created src/c.ts.');
    expect(end).toMatchObject({ status: 'partial', verified: 1 });
    expect(end.summary).toBe(result.summary);
    expect(printed).toContain('Made: created src/c.ts.');
  });

  it('an edit undone before the interrupt is nothing made', async () => {
    const root = sampleProject();
    const controller = new AbortController();
    const { result } = await judgedTurn(
      root,
      [
        callTool('fs_edit', { path: 'src/a.ts', oldString: 'a = 1', newString: 'a = 2' }),
        callTool('fs_edit', { path: 'src/a.ts', oldString: 'a = 2', newString: 'a = 1' }),
        () => {
          controller.abort('interrupted by SIGTERM');
          return { text: 'Working on it.' };
        },
      ],
      { signal: controller.signal },
    );
    expect(result).toMatchObject({ endingReason: 'aborted', status: 'failed' });
    expect(result.summary).toMatch(/^Aborted: nothing made before the interrupt is backed by the ledger\. /);
  });
});

describe('a Coder turn that ends in a text reply', () => {
  it('its summary names the files the ledger shows changed, whatever the reply claims', async () => {
    const root = sampleProject();
    const { result, end } = await judgedTurn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      say('Done.\n\nChanges:\n- created src/c.ts\n- created src/d.ts'),
    ]);
    expect(result.status).toBe('partial');
    expect(end.summary).toMatch(/^Partly done: the reply says src\/d\.ts was created/);
    expect(end.summary).toContain('Made: created src/c.ts. Answered: Done.');
    expect(end.summary).not.toContain('without claiming any change');
  });

  it('a true reply is a success whose summary says what was made; a read-only answer says nothing changed', async () => {
    const root = sampleProject();
    const made = await judgedTurn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      say('I created src/c.ts.'),
    ]);
    expect(made.result.status).toBe('success');
    expect(made.end.summary).toBe('Made: created src/c.ts. Answered: I created src/c.ts.');
    const read = await judgedTurn(root, [
      callTool('fs_read', { path: 'src/a.ts' }),
      say('src/a.ts exports a.'),
    ]);
    expect(read.end.summary).toBe('Answered without changing anything: src/a.ts exports a.');
  });
});

describe('a Coder turn that answers right after a failed call', () => {
  it('is partial when files changed before it, and its summary opens with "Partly done"', async () => {
    const root = sampleProject();
    const { result, end } = await judgedTurn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'bye\n' }),
      finish('Created src/c.ts saying hello.', [
        { target: 'src/c.ts', effect: 'created', contains: 'hello' },
      ]),
      say('ok'),
    ]);
    expect(result).toMatchObject({ endingReason: 'tool_failure', status: 'partial' });
    expect(result.summary).toMatch(/^Partly done: 1 file changed before the last tool call failed\. /);
    expect(end).toMatchObject({ status: 'partial', reason: 'tool_failure' });
    expect(String(end.summary)).toMatch(/^Partly done/);
  });

  it('is failed when nothing changed, and its summary opens with "Not done"', async () => {
    const root = sampleProject();
    const { result, end } = await judgedTurn(root, [
      callTool('fs_edit', { path: 'src/a.ts', oldString: 'NOT THERE', newString: 'x' }),
      say('Fixed it.'),
    ]);
    expect(result).toMatchObject({ endingReason: 'tool_failure', status: 'failed' });
    expect(String(end.summary)).toMatch(/^Not done\. /);
  });
});

describe('paths in another Unicode form', () => {
  it('a file written with an NFD name and named NFC in the request and the reply is the same file', async () => {
    const nfd = 'src/cafe\u0301.ts';
    const nfc = 'src/caf\u00e9.ts';
    const root = sampleProject();
    const { result, printed, end } = await judgedTurn(
      root,
      [callTool('fs_write', { path: nfd, content: 'x\n' }), say(`I created ${nfc}.`)],
      { message: `Create ${nfc}` },
    );
    expect(result.changes.map((row) => row.path)).toEqual([nfd]);
    expect(result).toMatchObject({ status: 'success', flags: [], unmet: [] });
    expect(end).toMatchObject({ status: 'success' });
    expect(printed).not.toContain('FLAGGED');
    const other = await judgedTurn(sampleProject(), [
      callTool('fs_write', { path: nfd, content: 'x\n' }),
      say('I created src/cafe.ts.'),
    ]);
    expect(other.result.flags.map((flag) => flag.path)).toEqual(['src/cafe.ts']);
  });
});
