import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChangeList, strictEntry } from '../../../src/agents/coder/change-list.js';
import { chatSchema } from '../../../src/agents/coder/chat-record.js';
import { coderAgent } from '../../../src/agents/coder/coder-agent.js';
import { judgeTurn } from '../../../src/agents/coder/judge-turn.js';
import { mentionedChanges } from '../../../src/agents/coder/mentioned-changes.js';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import type { Effect } from '../../../src/core/effects.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../../src/packs/workspace/tools/index.js';
import { callTool, type ScriptStep, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { sampleProject } from './coder-fixtures.js';

async function turn(
  root: string,
  steps: ScriptStep[],
  options: { message?: string; ledger?: Ledger; chatId?: string } = {},
) {
  const model = scriptedModel(steps);
  const result = await runTurn({
    message: options.message ?? 'do the work',
    root,
    ledger: options.ledger ?? tempLedger(),
    model,
    browser: false,
    decisions: false,
    ...(options.chatId ? { chatId: options.chatId } : {}),
  });
  model.assertComplete();
  return result;
}

const rows = (result: { changes: { path: string; change: string; from?: string }[] }) =>
  result.changes.map((row) =>
    row.from ? `${row.change} ${row.from} -> ${row.path}` : `${row.change} ${row.path}`,
  );
const said = (result: { flags: { path: string; said: string }[] }) =>
  result.flags.map((flag) => `${flag.path}: ${flag.said}`);

const editA = (from: string, to: string) =>
  callTool('fs_edit', { path: 'src/a.ts', oldString: from, newString: to });

describe('the tools record what a path held before each write', () => {
  it('fs_write, fs_edit, fs_delete and fs_move carry observed.before; fs_read stays a plain read', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    await turn(
      root,
      [
        callTool('fs_read', { path: 'README.md' }),
        callTool('fs_write', { path: 'src/a.ts', content: 'export const a = 5;\n' }),
        callTool('fs_write', { path: 'src/new.ts', content: 'x\n' }),
        callTool('fs_edit', { path: 'src/b.ts', oldString: '= 2', newString: '= 3' }),
        callTool('fs_move', { from: 'src/new.ts', to: 'lib/new.ts' }),
        callTool('fs_delete', { path: 'README.md' }),
        say('Done.'),
      ],
      { ledger },
    );
    const run = ledger.listRuns()[0];
    const effects = ledger
      .entries(run?.id as string)
      .filter((entry) => entry.kind === 'tool_call')
      .map((entry) => (entry.data.evidence as { effects: Effect[] }).effects);
    const priorOf = (effect: Effect | undefined) =>
      (effect?.observed as { before?: unknown } | undefined)?.before;
    const sha = (text: string) =>
      expect.objectContaining({ bytes: Buffer.byteLength(text), sha256: expect.any(String) });
    expect(effects[0]?.[0]?.observed).toEqual({ bytes: 9, sha256: expect.any(String) }); // fs_read: no `before`
    expect(priorOf(effects[1]?.[0])).toEqual(sha('export const a = 1;\n'));
    expect(priorOf(effects[2]?.[0])).toBeNull();
    expect(priorOf(effects[3]?.[0])).toEqual(sha('export const b = 2;\n'));
    expect(effects[4]?.map(priorOf)).toEqual([sha('x\n'), null]);
    expect(priorOf(effects[5]?.[0])).toEqual(sha('# Sample\n'));
  });
});

describe('the changes report by content: before the turn vs after it', () => {
  it('an edit reverted in the same turn is no change, and a claim that it was updated is flagged', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      editA('= 1', '= 3'),
      editA('= 3', '= 1'),
      say('I updated src/a.ts to export 3.'),
    ]);
    expect(result.changes).toEqual([]);
    expect(result.flags).toEqual([
      {
        path: 'src/a.ts',
        spelling: 'src/a.ts',
        said: 'updated',
        truth: 'unchanged this turn (changed, then restored to its content before the turn)',
        source: 'prose',
      },
    ]);
  });

  it('honest twin: a reverted edit the reply does not claim raises no flag (prose or "Changes: none")', async () => {
    for (const reply of [
      'I tried exporting 3 from src/a.ts, but that broke the build, so I reverted it. No files changed in the end.',
      'The experiment did not pan out.\n\nChanges: none',
    ]) {
      const root = sampleProject();
      const result = await turn(root, [editA('= 1', '= 3'), editA('= 3', '= 1'), say(reply)]);
      expect(result.changes).toEqual([]);
      expect(result.flags).toEqual([]);
    }
  });

  it('a rewrite with the same bytes is no change; delete then rewrite the same is no change; created then deleted is nothing', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      callTool('fs_write', { path: 'src/a.ts', content: 'export const a = 1;\n' }),
      callTool('fs_delete', { path: 'src/b.ts' }),
      callTool('fs_write', { path: 'src/b.ts', content: 'export const b = 2;\n' }),
      callTool('fs_write', { path: 'src/tmp.ts', content: 'tmp\n' }),
      callTool('fs_delete', { path: 'src/tmp.ts' }),
      say('I created src/tmp.ts.'),
    ]);
    expect(result.changes).toEqual([]);
    expect(result.flags).toEqual([
      expect.objectContaining({
        path: 'src/tmp.ts',
        truth: 'unchanged this turn (created and removed again)',
      }),
    ]);
  });

  it('a pure move is one `moved` row; "edited the destination" is flagged', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      callTool('fs_move', { from: 'src/b.ts', to: 'lib/b.ts' }),
      say('I edited lib/b.ts so it lives in lib.'),
    ]);
    expect(result.changes).toEqual([
      expect.objectContaining({ path: 'lib/b.ts', change: 'moved', from: 'src/b.ts', bytes: 20 }),
    ]);
    expect(result.flags).toEqual([
      {
        path: 'lib/b.ts',
        spelling: 'lib/b.ts',
        said: 'updated',
        truth: 'moved here from src/b.ts, content unchanged',
        source: 'prose',
      },
    ]);
  });

  it('honest twin: the reply says it moved the file (prose, and in the Changes list)', async () => {
    for (const reply of [
      'I moved src/b.ts to lib/b.ts.',
      'Done.\n\nChanges:\n- moved src/b.ts -> lib/b.ts',
      'Done.\n\nChanges:\n- deleted src/b.ts\n- created lib/b.ts',
    ]) {
      const root = sampleProject();
      const result = await turn(root, [
        callTool('fs_move', { from: 'src/b.ts', to: 'lib/b.ts' }),
        say(reply),
      ]);
      expect(rows(result)).toEqual(['moved src/b.ts -> lib/b.ts']);
      expect(result.flags).toEqual([]);
    }
  });

  it('a delete and a create with the same content is a move; moved then edited is a delete and a create', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      callTool('fs_delete', { path: 'src/a.ts' }),
      callTool('fs_write', { path: 'lib/a.ts', content: 'export const a = 1;\n' }),
      callTool('fs_move', { from: 'src/b.ts', to: 'lib/b.ts' }),
      callTool('fs_edit', { path: 'lib/b.ts', oldString: '= 2', newString: '= 20' }),
      say('I moved src/a.ts to lib/a.ts, and moved src/b.ts to lib/b.ts and updated lib/b.ts to export 20.'),
    ]);
    expect(rows(result)).toEqual(['moved src/a.ts -> lib/a.ts', 'created lib/b.ts', 'deleted src/b.ts']);
    expect(result.flags).toEqual([]);
  });

  it('a move over an existing file is `moved` with `replaced`, and then an update of the destination is true', async () => {
    const root = sampleProject();
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'lib', 'b.ts'), 'old\n');
    const result = await turn(root, [
      callTool('fs_move', { from: 'src/b.ts', to: 'lib/b.ts', overwrite: true }),
      say('I moved src/b.ts over lib/b.ts, which updated lib/b.ts.'),
    ]);
    expect(result.changes).toEqual([
      expect.objectContaining({ path: 'lib/b.ts', change: 'moved', from: 'src/b.ts', replaced: true }),
    ]);
    expect(result.flags).toEqual([]);
  });
});

describe('dotfiles and dot-directories are files', () => {
  it('flags a claim about .env the turn never made; the honest twin names .env correctly', async () => {
    const root = sampleProject();
    writeFileSync(join(root, '.env'), 'A=1\n');
    const lie = await turn(root, [
      callTool('fs_read', { path: '.env' }),
      say('I updated .env and .gitignore.'),
    ]);
    expect(lie.flags).toEqual([
      expect.objectContaining({ path: '.env', said: 'updated', truth: 'unchanged this turn (only read)' }),
      expect.objectContaining({ path: '.gitignore', said: 'updated', truth: 'not touched this turn' }),
    ]);
    const honest = await turn(root, [
      callTool('fs_write', { path: '.env', content: 'A=2\n' }),
      callTool('fs_write', { path: '.gitignore', content: 'node_modules\n' }),
      say('I updated .env and created `.gitignore`.'),
    ]);
    expect(rows(honest)).toEqual(['updated .env', 'created .gitignore']);
    expect(honest.flags).toEqual([]);
  });

  it('keeps the dot of a dot-directory: an honest reply is not flagged, a false one names the right path', async () => {
    const root = sampleProject();
    const honest = await turn(root, [
      callTool('fs_write', { path: '.github/workflows/ci.yml', content: 'on: push\n' }),
      say('I created `.github/workflows/ci.yml`.'),
    ]);
    expect(honest.flags).toEqual([]);
    const lie = await turn(root, [say('I updated .github/workflows/release.yml too.')]);
    expect(said(lie)).toEqual(['.github/workflows/release.yml: updated']);
  });

  it.each([
    ['I updated .env.', [['.env', 'updated']]],
    ['Created `.github/workflows/ci.yml`', [['.github/workflows/ci.yml', 'created']]],
    [
      'I updated ./src/a.ts and ../x/b.ts',
      [
        ['./src/a.ts', 'updated'],
        ['../x/b.ts', 'updated'],
      ],
    ],
    ['I updated all the .ts files', []],
    ['I updated the `.then()` chain', []],
    ['We moved to .NET, I updated nothing', []],
  ])('%s', (text, expected) => {
    expect(mentionedChanges(text).map((mention) => [mention.spelling, mention.said])).toEqual(expected);
  });
});

describe('a recap never launders a new claim', () => {
  async function afterTurnOne() {
    const root = sampleProject();
    const ledger = tempLedger();
    const first = await turn(
      root,
      [callTool('fs_write', { path: 'src/c.ts', content: 'c\n' }), say('Created src/c.ts.')],
      { ledger },
    );
    return { root, ledger, chatId: first.chatId };
  }

  it.each([
    'As before, I created src/c.ts.',
    'As earlier, I created src/c.ts.',
    'I created src/c.ts again.',
    'Earlier I created src/c.ts; now I updated src/c.ts.',
    'Previously I created src/d.ts.',
  ])('flags: %s', async (reply) => {
    const { root, ledger, chatId } = await afterTurnOne();
    const second = await turn(root, [say(reply)], { ledger, chatId });
    expect(second.flags).toHaveLength(1);
  });

  it.each([
    'In turn 1 I created src/c.ts; this turn I changed nothing.',
    'Earlier I created src/c.ts, so there was nothing left to do.',
    'src/c.ts was created in the previous turn.',
    'Earlier, I created src/c.ts.',
  ])('honest twin, no flag: %s', async (reply) => {
    const { root, ledger, chatId } = await afterTurnOne();
    const second = await turn(root, [say(reply)], { ledger, chatId });
    expect(second.flags).toEqual([]);
  });
});

describe('change lists: bullets with or without verbs', () => {
  it.each([
    [
      'Changes:\n- src/a.ts\n* added: src/b.ts',
      [
        ['src/a.ts', 'changed'],
        ['src/b.ts', 'created'],
      ],
    ],
    ['Files changed:\n1. `src/a.ts`\n2. src/b.ts (unchanged)', [['src/a.ts', 'changed']]],
    ['## Changes\n\n- src/a.ts — new helper\n\nNext I will update src/b.ts.', [['src/a.ts', 'changed']]],
    ['Here is src/a.ts:\n- src/b.ts', []],
    ['```\nChanges:\n- src/a.ts\n```', []],
  ])('%s', (text, expected) => {
    expect(mentionedChanges(text).map((mention) => [mention.spelling, mention.said])).toEqual(expected);
  });

  it('strict entries: the asked-for form, with a remark allowed', () => {
    expect(strictEntry('updated src/a.ts (exports 10)')).toEqual({
      said: 'updated',
      spelling: 'src/a.ts',
      strict: true,
    });
    expect(strictEntry('moved `src/b.ts` -> `lib/b.ts`')).toEqual({
      said: 'moved',
      spelling: 'lib/b.ts',
      from: 'src/b.ts',
      strict: true,
    });
    expect(strictEntry('renamed a.ts to b.ts')).toMatchObject({
      said: 'moved',
      from: 'a.ts',
      spelling: 'b.ts',
    });
    expect(strictEntry('updated src/a.ts and src/b.ts')).toBeUndefined();
    expect(strictEntry('renamed `foo` to `bar`')).toBeUndefined();
    expect(strictEntry('created Dockerfile')).toMatchObject({ said: 'created', spelling: 'Dockerfile' });
    expect(strictEntry('src/a.ts')).toBeUndefined();
    expect(parseChangeList('No list here, I updated src/a.ts.')).toBeUndefined();
    expect(parseChangeList('**Changes:** none')).toEqual({ entries: [], none: true, rest: '' });
  });

  it('a verbless list that lies is flagged; its honest twin is not', async () => {
    const root = sampleProject();
    const lie = await turn(root, [
      editA('= 1', '= 10'),
      say('Done.\n\nFiles changed:\n- src/a.ts\n- src/b.ts'),
    ]);
    expect(lie.flags).toEqual([
      {
        path: 'src/b.ts',
        spelling: 'src/b.ts',
        said: 'changed',
        truth: 'not touched this turn',
        source: 'changes-list',
      },
    ]);
    const honestRoot = sampleProject();
    const honest = await turn(honestRoot, [editA('= 1', '= 10'), say('Done.\n\nFiles changed:\n- src/a.ts')]);
    expect(honest.flags).toEqual([]);
  });
});

describe('the Changes list is checked both ways', () => {
  const work = (): ScriptStep[] => [
    editA('= 1', '= 10'),
    callTool('fs_write', { path: 'src/c.ts', content: 'c\n' }),
    callTool('fs_delete', { path: 'README.md' }),
    callTool('fs_move', { from: 'src/b.ts', to: 'lib/b.ts' }),
  ];

  it('honest: every change listed with its kind → no flag', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      ...work(),
      say(
        'All done.\n\nChanges:\n- updated src/a.ts\n- created `src/c.ts`\n- deleted README.md\n- moved src/b.ts -> lib/b.ts',
      ),
    ]);
    expect(rows(result)).toEqual([
      'deleted README.md',
      'moved src/b.ts -> lib/b.ts',
      'updated src/a.ts',
      'created src/c.ts',
    ]);
    expect(result.flags).toEqual([]);
  });

  it('flags a listed change that is not real, a wrong kind, and every real change left out', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      ...work(),
      say('All done.\n\nChanges:\n- created src/a.ts\n- created src/d.ts\n- updated lib/b.ts'),
    ]);
    expect(result.flags).toEqual([
      { path: 'src/a.ts', spelling: 'src/a.ts', said: 'created', truth: 'updated', source: 'changes-list' },
      {
        path: 'src/d.ts',
        spelling: 'src/d.ts',
        said: 'created',
        truth: 'not touched this turn',
        source: 'changes-list',
      },
      {
        path: 'lib/b.ts',
        spelling: 'lib/b.ts',
        said: 'updated',
        truth: 'moved here from src/b.ts, content unchanged',
        source: 'changes-list',
      },
      {
        path: 'README.md',
        spelling: 'README.md',
        said: 'left out of the Changes list',
        truth: 'deleted',
        source: 'changes-list',
      },
      {
        path: 'src/c.ts',
        spelling: 'src/c.ts',
        said: 'left out of the Changes list',
        truth: 'created',
        source: 'changes-list',
      },
    ]);
  });

  it('a move listed as a move of other files is flagged with both ends; "Changes: none" leaves changes out', async () => {
    const root = sampleProject();
    const wrongMove = await turn(root, [
      callTool('fs_move', { from: 'src/b.ts', to: 'lib/b.ts' }),
      say('Changes:\n- moved src/a.ts -> lib/a.ts\n- moved src/b.ts -> lib/b.ts'),
    ]);
    expect(wrongMove.flags).toEqual([
      expect.objectContaining({
        path: 'lib/a.ts',
        spelling: 'src/a.ts -> lib/a.ts',
        said: 'moved',
        truth: 'src/a.ts: not touched this turn; lib/a.ts: not touched this turn',
      }),
    ]);
    const none = await turn(sampleProject(), [editA('= 1', '= 10'), say('Changes: none')]);
    expect(said(none)).toEqual(['src/a.ts: left out of the Changes list']);
  });

  it('a directory moved or deleted as a whole is listed by its own entry', async () => {
    const root = sampleProject();
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'one.md'), '1\n');
    writeFileSync(join(root, 'docs', 'two.md'), '2\n');
    const result = await turn(root, [
      callTool('fs_move', { from: 'src', to: 'lib' }),
      callTool('fs_delete', { path: 'docs', recursive: true }),
      say('Changes:\n- moved src/ -> lib/\n- deleted docs/'),
    ]);
    expect(rows(result)).toEqual([
      'deleted docs',
      'deleted docs/one.md',
      'deleted docs/two.md',
      'moved src -> lib',
      'moved src/a.ts -> lib/a.ts',
      'moved src/b.ts -> lib/b.ts',
    ]);
    expect(result.flags).toEqual([]);
  });

  it('prose outside the list is still read; a reply without a list falls back to prose only', async () => {
    const root = sampleProject();
    const result = await turn(root, [
      editA('= 1', '= 10'),
      say('I also deleted README.md.\n\nChanges:\n- updated src/a.ts'),
    ]);
    expect(result.flags).toEqual([
      expect.objectContaining({ path: 'README.md', said: 'deleted', source: 'prose' }),
    ]);
    const prose = await turn(sampleProject(), [editA('= 1', '= 10'), say('Exported 10 from the module.')]);
    expect(prose.flags).toEqual([]); // no list: a change the reply does not mention is not flagged
  });

  it('a recap bullet is excused only by an earlier turn that really made that change', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const first = await turn(
      root,
      [callTool('fs_write', { path: 'src/c.ts', content: 'c\n' }), say('Created src/c.ts.')],
      {
        ledger,
      },
    );
    const second = await turn(
      root,
      [
        editA('= 1', '= 10'),
        say('Changes:\n- updated src/a.ts\n- created src/c.ts (in turn 1)\n- created src/d.ts (in turn 1)'),
      ],
      { ledger, chatId: first.chatId },
    );
    expect(said(second)).toEqual(['src/d.ts: created']);
  });
});

describe('judgeTurn: the one function a turn calls', () => {
  it('judges a run from its ledger entries, whatever ran the tools', async () => {
    const dir = sampleProject();
    const root = await ProjectRoot.open(dir);
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'coder', task: 't' });
    const runId = recorder.runId;
    const tools = Object.fromEntries(workspaceTools({ root }).map((tool) => [tool.name, tool]));
    for (const [name, input] of [
      ['fs_move', { from: 'src/b.ts', to: 'lib/b.ts', overwrite: false }],
      ['fs_edit', { path: 'src/a.ts', oldString: '= 1', newString: '= 2' }],
    ] as const) {
      const outcome = await tools[name]?.execute(input as never, { runId, failOpen: () => undefined });
      recorder.append({
        kind: 'tool_call',
        name,
        outcome: 'ok',
        data: { tool: name, target: '', evidence: outcome?.evidence },
      });
    }
    const judged = await judgeTurn({
      text: 'Changes:\n- updated lib/b.ts\n- updated src/a.ts',
      entries: ledger.entries(runId),
      root,
    });
    expect(judged.checked).toBe('changes-list');
    expect(rows(judged)).toEqual(['moved src/b.ts -> lib/b.ts', 'updated src/a.ts']);
    expect(said(judged)).toEqual(['lib/b.ts: updated']);
    expect(await judgeTurn({ entries: [], root })).toEqual({ changes: [], flags: [], checked: 'nothing' });
  });
});

describe('compatibility and the prompt', () => {
  it('a chat file written before `moved`/`replaced`/`source` existed still loads', () => {
    const old = {
      version: 1,
      id: 'c1',
      createdAt: 't',
      updatedAt: 't',
      tree: [],
      turns: [
        {
          runId: 'r',
          at: 't',
          model: 'm',
          user: 'u',
          reply: 'r',
          endingReason: 'finished',
          tools: [],
          changes: [{ path: 'src/a.ts', change: 'updated', bytes: 3, sha256: 'abc', via: 'fs_edit' }],
          flags: [
            { path: 'src/b.ts', spelling: 'src/b.ts', said: 'updated', truth: 'not touched this turn' },
          ],
        },
      ],
    };
    expect(chatSchema.parse(old).turns[0]?.changes[0]?.change).toBe('updated');
  });

  it('asks the model for a Changes: block in the checked form', () => {
    const prompt = coderAgent({ tools: [] }).instructions;
    expect(prompt).toContain('`Changes:`');
    for (const form of ['- created PATH', '- updated PATH', '- deleted PATH', '- moved FROM -> TO'])
      expect(prompt).toContain(form);
  });
});
