import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decisionsByRule } from '../../../src/agents/coder/extract-decisions.js';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import type { TurnEvent } from '../../../src/agents/coder/turn-events.js';
import { callTool, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { runTally, tempLedger } from '../../helpers.js';
import { sampleProject } from './coder-fixtures.js';

describe('runTurn onEvent: the turn as it happens', () => {
  it('tells each step text, each tool call with its evidence or refusal, the nudge, then the end', async () => {
    const root = sampleProject();
    const events: TurnEvent[] = [];
    const model = scriptedModel([
      callTool('fs_read', { path: 'src/a.ts' }),
      callTool('fs_write', { path: '../outside.ts', content: 'x' }),
      callTool('fs_read', { path: 'src/b.ts' }),
      callTool('fs_write', { path: 'src/c.ts', content: 'export {};\n' }, 'Status: writing src/c.ts.'),
      say('I created src/c.ts.'),
    ]);
    const result = await runTurn({
      message: 'add src/c.ts',
      root,
      ledger: tempLedger(),
      model,
      browser: false,
      onEvent: (event) => events.push(event),
    });
    const shown = events.map((event) =>
      event.type === 'tool-call'
        ? `${event.tool} ${event.outcome}${event.error ? ` ${event.error.code}` : ''}`
        : event.type === 'text'
          ? `text: ${event.text}`
          : event.type === 'guard'
            ? `guard ${event.guard}`
            : event.type,
    );
    expect(shown).toEqual([
      'turn-start',
      'run-start',
      'fs_read ok',
      'fs_write rejected PATH_OUTSIDE_PROJECT',
      'fs_read ok',
      'guard silence',
      'nudge',
      'text: Status: writing src/c.ts.',
      'fs_write ok',
      'text: I created src/c.ts.',
      'turn-end',
    ]);
    const write = events.find(
      (event) => event.type === 'tool-call' && event.outcome === 'ok' && event.tool === 'fs_write',
    );
    expect(write).toMatchObject({ via: expect.stringMatching(/^fs_write src\/c\.ts sha256=/) });
    expect(events.at(-1)).toEqual({ type: 'turn-end', result });
  });

  it('a listener that throws does not change the turn', async () => {
    const result = await runTurn({
      message: 'add src/c.ts',
      root: sampleProject(),
      ledger: tempLedger(),
      model: scriptedModel([
        callTool('fs_write', { path: 'src/c.ts', content: 'x\n' }),
        say('I created src/c.ts.'),
      ]),
      browser: false,
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(result).toMatchObject({ endingReason: 'finished', flags: [] });
    expect(result.changes).toHaveLength(1);
  });
});

describe('decisions to records', () => {
  it.each([
    ["Let's use Postgres for the orders table.", 'Use Postgres for the orders table'],
    ['We decided to drop IE11 support', 'Drop IE11 support'],
    ['ok. Decision: tabs, not spaces', 'Tabs, not spaces'],
    ["We'll go with Vite for the build", 'Go with Vite for the build'],
  ])('reads an explicit wording: %s', (user, title) => {
    expect(decisionsByRule(user, '')).toEqual([expect.objectContaining({ title, by: 'rule' })]);
  });

  it('does not record a suggestion, a question, or a model reply without a Decision: line', () => {
    expect(decisionsByRule('Should we use Postgres?', 'Let us use MySQL instead.')).toEqual([]);
    expect(decisionsByRule('fix the build', 'We decided to use Postgres.')).toEqual([]);
  });

  function recordsProject(): string {
    const root = sampleProject();
    mkdirSync(join(root, 'references'));
    return root;
  }

  it('writes a kind: decision record with confidence auto and the chat; tally records query finds it', async () => {
    const root = recordsProject();
    const result = await runTurn({
      message: "Let's use Postgres for storage. Add a note to README.md.",
      root,
      ledger: tempLedger(),
      model: scriptedModel([say('Noted: Postgres for storage.')]),
      browser: false,
    });
    expect(result.decisions?.records).toEqual([
      {
        id: 'DEC-auto-use-postgres-for-storage',
        path: 'references/decisions/DEC-auto-use-postgres-for-storage.md',
        title: 'Use Postgres for storage',
        by: 'rule',
      },
    ]);
    const text = readFileSync(
      join(root, 'references', 'decisions', 'DEC-auto-use-postgres-for-storage.md'),
      'utf8',
    );
    expect(text).toMatch(
      /^---\nid: DEC-auto-use-postgres-for-storage\nkind: decision\ndate: \d{4}-\d\d-\d\d\n/,
    );
    expect(text).toContain('confidence: auto');
    expect(text).toContain(`chat: ${result.chatId}`);
    expect(text).toContain('keywords:\n  - postgres\n  - storage');
    const query = await runTally(['records', 'query', '--kind', 'decision', '--root', root]);
    expect(query.code).toBe(0);
    expect(query.stdout).toContain('references/decisions/DEC-auto-use-postgres-for-storage.md');
    const lint = await runTally(['records', 'lint', '--root', root]);
    expect(lint.stdout + lint.stderr).not.toContain('DEC-auto');
  });

  it('asks the model only when the rules found nothing and the wording hints at a decision', async () => {
    const root = recordsProject();
    const decisionModel = scriptedModel([
      say(
        '{"decisions":[{"title":"Use SQLite for tests","quote":"SQLite is what we settled on for tests"}]}',
      ),
    ]);
    const result = await runTurn({
      message: 'SQLite is what we settled on for tests, fine.',
      root,
      ledger: tempLedger(),
      model: scriptedModel([say('Understood.')]),
      browser: false,
      decisions: { model: decisionModel },
    });
    decisionModel.assertComplete();
    expect(result.decisions?.records).toEqual([
      expect.objectContaining({ title: 'Use SQLite for tests', by: 'model' }),
    ]);
    expect(readFileSync(join(root, result.decisions?.records[0]?.path ?? ''), 'utf8')).toContain(
      'extracted_by: model',
    );
  });

  it('a failing extraction never fails the turn: a decision-extraction-failed fail-open and a note', async () => {
    const root = recordsProject();
    const ledger = tempLedger();
    const result = await runTurn({
      message: 'We settled on Redis, I think.',
      root,
      ledger,
      model: scriptedModel([say('OK.')]),
      browser: false,
      decisions: { model: scriptedModel([say('not json at all')]) },
    });
    expect(result).toMatchObject({ endingReason: 'finished', reply: 'OK.' });
    expect(result.decisions?.note).toMatch(/^Decision extraction failed .*the turn is unaffected/);
    const failOpens = ledger.entries(result.runId).filter((entry) => entry.kind === 'fail_open');
    expect(failOpens).toEqual([expect.objectContaining({ outcome: 'decision-extraction-failed' })]);
    expect(readdirSync(join(root, 'references'))).toEqual([]);
  });

  it('without a references/ folder nothing is written and the result says why', async () => {
    const root = sampleProject();
    const result = await runTurn({
      message: "Let's use Postgres.",
      root,
      ledger: tempLedger(),
      model: scriptedModel([say('OK.')]),
      browser: false,
    });
    expect(result.decisions?.note).toContain('has no references/ folder');
    expect(readdirSync(root)).not.toContain('references');
  });
});
