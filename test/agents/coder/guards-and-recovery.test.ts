import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coderAgent } from '../../../src/agents/coder/coder-agent.js';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../../src/packs/workspace/tools/index.js';
import { callTool, callTools, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { promptTexts, sampleProject } from './coder-fixtures.js';

const NUDGE = 'Status check';

function nudgeEntries(ledger: ReturnType<typeof tempLedger>, runId: string) {
  return ledger.entries(runId).filter((entry) => entry.kind === 'nudge' || entry.kind === 'guard');
}

describe('the status nudge', () => {
  it('fires after 3 silent rounds, before round 4, and is in the ledger', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('fs_read', { path: 'src/a.ts' }),
      callTool('fs_read', { path: 'src/b.ts' }),
      callTool('fs_read', { path: 'README.md' }),
      say('Reading done: the project has two modules.'),
    ]);

    const result = await runTurn({ message: 'read everything', root, ledger, model });

    expect(result.endingReason).toBe('finished');
    const fourth = promptTexts(model.calls[3]?.prompt ?? []);
    expect(fourth.at(-1)).toEqual({ role: 'user', text: expect.stringContaining(NUDGE) });
    expect(promptTexts(model.calls[2]?.prompt ?? []).some((message) => message.text.includes(NUDGE))).toBe(
      false,
    );
    expect(nudgeEntries(ledger, result.runId).map((entry) => [entry.kind, entry.name])).toEqual([
      ['guard', 'silence'],
      ['nudge', 'silence'],
    ]);
  });

  it('fires after 6 tool calls without text even within 2 rounds', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const reads = (paths: string[]) =>
      callTools(paths.map((path) => ({ toolName: 'fs_read', input: { path } })));
    const model = scriptedModel([
      reads(['src/a.ts', 'src/b.ts', 'README.md']),
      reads(['./src/a.ts', './src/b.ts', './README.md']),
      say('Read all three files twice.'),
    ]);

    const result = await runTurn({ message: 'read all files', root, ledger, model });

    expect(promptTexts(model.calls[2]?.prompt ?? []).at(-1)?.text).toContain(NUDGE);
    expect(nudgeEntries(ledger, result.runId)[0]).toMatchObject({
      name: 'silence',
      data: { detail: '2 rounds and 6 tool calls without text for the user' },
    });
  });

  it('can always fire before the round cap: settings where it cannot are rejected at construction', async () => {
    const root = await ProjectRoot.open(sampleProject());
    expect(() => coderAgent({ tools: workspaceTools({ root }), guards: { maxRounds: 3 } })).toThrow(
      /silence nudge .* can never fire before the round cap of 3/,
    );
    expect(coderAgent({ tools: workspaceTools({ root }) }).guards).toMatchObject({
      maxRounds: 24,
      silence: { rounds: 3, toolCalls: 6 },
    });
    const project = sampleProject();
    await expect(
      runTurn({
        message: 'x',
        root: project,
        ledger: tempLedger(),
        model: scriptedModel([]),
        guards: { maxRounds: 2 },
      }),
    ).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
    expect(existsSync(join(project, '.tally', 'chats'))).toBe(false);
  });

  it('fires at the lowest allowed cap (4) before the cap ends the turn', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('fs_read', { path: 'src/a.ts' }),
      callTool('fs_read', { path: 'src/b.ts' }),
      callTool('fs_read', { path: 'README.md' }),
      callTool('fs_list', { path: '.' }),
    ]);
    const result = await runTurn({ message: 'read it all', root, ledger, model, guards: { maxRounds: 4 } });
    expect(result.endingReason).toBe('round_cap');
    expect(nudgeEntries(ledger, result.runId).map((entry) => entry.kind)).toEqual(['guard', 'nudge']);
  });
});

describe('the conversational first round', () => {
  it('answers a greeting without tools and records the firing with the message preview', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const model = scriptedModel([say('Hello! What shall we work on?')]);

    const result = await runTurn({ message: 'hello there', root, ledger, model });

    expect(result).toMatchObject({ endingReason: 'finished', conversational: true, changes: [], flags: [] });
    expect(model.calls[0]?.tools ?? []).toEqual([]);
    const run = ledger.getRun(result.runId);
    expect(run.run.meta).toMatchObject({ conversational: { preview: 'hello there' } });
    expect(run.entries.find((entry) => entry.kind === 'guard')).toMatchObject({
      name: 'conversational_first_turn',
      outcome: 'no_tools',
    });
  });

  it('lets a plain question through without tools, and a request with its tools', async () => {
    const root = sampleProject();
    const question = scriptedModel([say('A chat turn ends in text.')]);
    await runTurn({ message: 'how does a turn end?', root, ledger: tempLedger(), model: question });
    expect(question.calls[0]?.tools ?? []).toEqual([]);

    const request = scriptedModel([say('Nothing to fix.')]);
    await runTurn({ message: 'fix the bug in src/a.ts', root, ledger: tempLedger(), model: request });
    expect(request.calls[0]?.tools?.map((tool) => tool.name)).toContain('fs_edit');
  });

  it('a question about a file, a path or code is no plain question: its first round has the tools to read it', async () => {
    const root = sampleProject();
    for (const message of [
      'What does README.md say?',
      'what is in src/a.ts?',
      'why is the src/ folder there?',
      'What does `a` hold?',
      'Which settings does .env hold?',
      'what does the Makefile do?',
      'Is there a LICENSE?',
    ]) {
      const model = scriptedModel([
        callTool('fs_read', { path: 'README.md' }),
        say('It is a sample project.'),
      ]);
      const result = await runTurn({ message, root, ledger: tempLedger(), model });
      expect(
        model.calls[0]?.tools?.map((tool) => tool.name),
        message,
      ).toContain('fs_read');
      expect(result).toMatchObject({ conversational: false, status: 'success' });
    }
  });

  it('uses a replacement classifier', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const model = scriptedModel([say('Hi.')]);
    const result = await runTurn({ message: 'hello', root, ledger, model, isConversational: () => false });
    expect(result.conversational).toBe(false);
    expect(model.calls[0]?.tools?.length).toBeGreaterThan(0);
    expect(ledger.getRun(result.runId).run.meta.conversational).toBeUndefined();
  });
});

describe('recovery: a turn that ends badly says why, from the ledger', () => {
  it.each([
    {
      name: 'round cap',
      reason: 'round_cap',
      guards: { maxRounds: 4 },
      steps: [
        callTool('fs_read', { path: 'src/a.ts' }, 'Reading.'),
        callTool('fs_read', { path: 'src/b.ts' }, 'Reading.'),
        callTool('fs_read', { path: 'README.md' }, 'Reading.'),
        callTool('fs_list', { path: '.' }, 'Listing.'),
      ],
    },
    {
      name: 'loop',
      reason: 'loop',
      steps: [1, 2, 3, 4].map(() => callTool('fs_read', { path: 'src/a.ts' }, 'Reading again.')),
    },
    { name: 'no text', reason: 'no_text', steps: [say('')] },
  ])('$name', async ({ reason, steps, guards }) => {
    const root = sampleProject();
    const ledger = tempLedger();
    const model = scriptedModel(steps);
    const result = await runTurn({
      message: 'do the work',
      root,
      ledger,
      model,
      ...(guards ? { guards } : {}),
    });
    model.assertComplete();
    expect(result.endingReason).toBe(reason);
    expect(result.recovery?.reason).toBe(reason);
    expect(result.recovery?.summary).toMatch(
      new RegExp(`^Not done\\. Run ended: ${reason} — .+ tool calls?: `),
    );
    expect(result.reply).toContain(result.recovery?.summary);
    const end = ledger.entries(result.runId).at(-1);
    expect(end).toMatchObject({ kind: 'end', outcome: reason, data: { summary: result.summary } });
  });

  it('a text reply right after a failed tool call', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const model = scriptedModel([callTool('fs_read', { path: 'nope.ts' }), say('Done, all good.')]);
    const result = await runTurn({ message: 'read nope.ts', root, ledger, model });
    // One reason everywhere: the turn ended for its failed call, and the end entry says so.
    expect(result.endingReason).toBe('tool_failure');
    expect(result.status).toBe('failed');
    expect(ledger.entries(result.runId).at(-1)).toMatchObject({
      kind: 'end',
      outcome: 'tool_failure',
      data: { status: 'failed', recovery: { reason: 'tool_failure' } },
    });
    expect(result.recovery).toMatchObject({ reason: 'tool_failure' });
    expect(result.recovery?.summary).toMatch(/Last failure: fs_read nope\.ts \((error|rejected): .*nope\.ts/);
    expect(result.reply).toBe(`Done, all good.\n\n${result.recovery?.summary}`);
  });

  it('a failure the model recovered from is no bad ending', async () => {
    const root = sampleProject();
    const model = scriptedModel([
      callTool('fs_read', { path: 'nope.ts' }),
      callTool('fs_read', { path: 'src/a.ts' }),
      say('nope.ts does not exist; src/a.ts exports a.'),
    ]);
    const result = await runTurn({ message: 'read nope.ts', root, ledger: tempLedger(), model });
    expect(result.recovery).toBeUndefined();
  });
});
