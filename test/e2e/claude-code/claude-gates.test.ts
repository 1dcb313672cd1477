import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { tempDir } from '../../helpers.js';
import {
  type AnthropicMock,
  type MessagesRequest,
  type ReplyBlock,
  startAnthropicMock,
} from './anthropic-mock.js';
import {
  answered,
  claudeCommand,
  claudeWorld,
  lastUserTexts,
  localMarketplace,
  PLUGIN,
  REPO,
  runClaude,
  toolResults,
  userTexts,
} from './run-claude.js';

// The real Claude Code (2.1.332, pinned in devDependencies), headless and offline against a
// scripted Messages API on 127.0.0.1, with Tally's plugin loaded. The model is scripted; the
// hooks, the skill fork, the scout command, the permission checks and the ledger are real.

const mocks: AnthropicMock[] = [];
afterEach(async () => {
  while (mocks.length > 0) await mocks.pop()?.close();
});

async function mock(responder: (request: MessagesRequest) => ReplyBlock[] | undefined) {
  const started = await startAnthropicMock(responder);
  mocks.push(started);
  return started;
}

const GATE = 'Tally gate how-do-i';
const FORK = 'Run the Tally scout on the goal';

/**
 * The scripted model: writes first; told by the gate, calls the how-do-i skill; in the fork,
 * runs the command the skill names (the real scout) and returns its output; then writes
 * again; asked for the review, calls it once. `writeFile` is the file it writes.
 */
function scriptedModel(writeFile: string) {
  let denials = 0;
  return (request: MessagesRequest): ReplyBlock[] | undefined => {
    if (!request.tools?.length) return [{ text: 'Tally test' }];
    const last = lastUserTexts(request);
    const all = userTexts(request);
    const write: ReplyBlock = { tool: 'Write', input: { file_path: writeFile, content: 'hi\n' } };
    if (all.includes(FORK)) {
      const command = /```sh\n(.+)\n```/.exec(all)?.[1];
      if (!answered(request) && command)
        return [{ tool: 'Bash', input: { command, description: 'Run the Tally scout' } }];
      return [{ text: last }];
    }
    if (!answered(request)) return [write];
    if (last.includes(GATE)) {
      denials += 1;
      // Denied after the skill ran: the scout did not record its run. Stop trying.
      if (denials > 1) return [{ text: 'The gate stays closed: the scout did not run.' }];
      return [{ tool: 'Skill', input: { skill: 'tally:how-do-i', args: 'create hello.txt' } }];
    }
    if (last.includes('completed (forked execution)')) return [write];
    if (last.includes('Tally gate am-i-done'))
      return [{ tool: 'Skill', input: { skill: 'tally:am-i-done' } }];
    return [{ text: 'Done.' }];
  };
}

function scoutRuns(project: string) {
  const path = join(project, '.tally', 'ledger.db');
  if (!existsSync(path)) return [];
  const ledger = Ledger.open(path, { readonly: true });
  try {
    return ledger.listRuns({ agent: 'scout' });
  } finally {
    ledger.close();
  }
}

describe('Claude Code 2.1.332 headless, with the Tally plugin', () => {
  it('denies the first Write, the reason reaches the model, the skill’s scout run opens the gate, Stop asks once', async () => {
    const dir = tempDir();
    const api = await mock(scriptedModel(join(dir, 'project', 'hello.txt')));
    const world = claudeWorld(dir, api.url);
    const run = await runClaude(world, 'create hello.txt', [
      '--plugin-dir',
      PLUGIN,
      '--allowedTools',
      'Write',
      `Bash(node "${PLUGIN}/bin/tally.js" scout:*)`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults(run);
    // 1. The first Write was denied by the gate, before any scout ran; nothing was written then.
    const first = results[0];
    expect(first?.text).toContain(GATE);
    expect(first?.text).toContain('the Skill tool with skill "tally:how-do-i"');
    expect(first?.text).toContain('subagent_type "tally:scout"');
    expect(first?.text).toContain(`--session ${run.session}`);
    // 2. The reason is in the next request body Claude Code sent to the model.
    const next = api.requests.find((request) => lastUserTexts(request).includes(GATE));
    expect(next && lastUserTexts(next)).toContain('subagent_type "tally:scout"');
    // 3. The skill forked and ran the real scout through the plugin's launcher: its run is in the ledger.
    const runs = scoutRuns(world.project);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.meta).toMatchObject({ session: run.session });
    expect(runs[0]?.endingReason).toBe('stopped'); // no record governs hello.txt: NOT FOUND, honestly
    const state = JSON.parse(
      readFileSync(join(world.project, '.tally', 'gates', `${run.session}.turn.json`), 'utf8'),
    );
    expect(state).toMatchObject({ scout: true, scoutRun: runs[0]?.id });
    // 4. The second Write ran.
    expect(readFileSync(join(world.project, 'hello.txt'), 'utf8')).toBe('hi\n');
    // 5. Stop asked for the review exactly once, counting only the Write that ran.
    const final = api.requests.at(-1) as MessagesRequest;
    const asks = userTexts(final).split('Tally gate am-i-done').length - 1;
    expect(asks).toBe(1);
    expect(userTexts(final)).toContain('this turn changed things (1 call(s): Write)');
    expect(run.events.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
  }, 90_000);

  it('a scout command the permission rules refuse leaves the gate closed, whatever the Skill reports', async () => {
    const dir = tempDir();
    const api = await mock(scriptedModel(join(dir, 'project', 'hello.txt')));
    const world = claudeWorld(dir, api.url);
    // Write is allowed; the skill's Bash command is not (headless: no one to approve it).
    const run = await runClaude(world, 'create hello.txt', [
      '--plugin-dir',
      PLUGIN,
      '--allowedTools',
      'Write',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults(run);
    expect(results.some((result) => /requires approval|haven't granted|permission/i.test(result.text))).toBe(
      true,
    );
    // The Skill itself came back as completed — the word the old gate trusted (issue 18).
    expect(results.some((result) => result.text.includes('completed (forked execution)'))).toBe(true);
    expect(scoutRuns(world.project)).toEqual([]);
    // Both Writes were denied by the gate; the file was never written.
    expect(results.filter((result) => result.text.includes(GATE))).toHaveLength(2);
    expect(existsSync(join(world.project, 'hello.txt'))).toBe(false);
  }, 90_000);

  it.each([
    ['an async Agent', 'Agent'],
    ['a context: fork skill', 'Skill'],
  ])(
    'a write made by a sub-agent (%s) is asked about at Stop: its calls are not in the turn’s transcript',
    async (_, tool) => {
      const dir = tempDir();
      const hello = join(dir, 'project', 'hello.txt');
      const api = await mock((request) => {
        if (!request.tools?.length) return [{ text: 'Tally test' }];
        // The sub-agent (its prompt is the task, or the skill's body): writes, then reports.
        if (userTexts(request).includes('SUBTASK'))
          return answered(request)
            ? [{ text: 'Wrote it.' }]
            : [{ tool: 'Write', input: { file_path: hello, content: 'hi\n' } }];
        if (!answered(request))
          return tool === 'Agent'
            ? [
                {
                  tool: 'Agent',
                  input: {
                    subagent_type: 'general-purpose',
                    description: 'write',
                    prompt: 'SUBTASK: create hello.txt',
                  },
                },
              ]
            : [{ tool: 'Skill', input: { skill: 'writer' } }];
        return [{ text: 'Done.' }];
      });
      const world = claudeWorld(dir, api.url);
      // No record store: the how-do-i gate releases, only the Stop gate is under test.
      rmSync(join(world.project, 'references'), { recursive: true });
      mkdirSync(join(world.project, '.claude', 'skills', 'writer'), { recursive: true });
      writeFileSync(
        join(world.project, '.claude', 'skills', 'writer', 'SKILL.md'),
        '---\nname: writer\ndescription: Writes hello.txt.\ncontext: fork\n---\n\nSUBTASK: create hello.txt\n',
      );
      const run = await runClaude(world, 'create hello.txt', [
        '--plugin-dir',
        PLUGIN,
        '--allowedTools',
        'Write',
        'Skill',
        'Agent',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(readFileSync(hello, 'utf8')).toBe('hi\n');
      const asks = api.requests.filter((request) => lastUserTexts(request).includes('Tally gate am-i-done'));
      expect(asks).toHaveLength(1);
      expect(lastUserTexts(asks[0] as MessagesRequest)).toContain(
        `this turn changed things (1 call(s): ${tool})`,
      );
    },
    90_000,
  );

  it('installed from a local marketplace copy (no tally_dir), the plugin finds Tally and denies the first Write', async () => {
    const dir = tempDir();
    const api = await mock((request) =>
      !request.tools?.length
        ? [{ text: 'Tally test' }]
        : answered(request)
          ? [{ text: 'Stopping here.' }]
          : [{ tool: 'Write', input: { file_path: join(dir, 'project', 'hello.txt'), content: 'hi\n' } }],
    );
    const world = claudeWorld(dir, api.url);
    // The project's own install of Tally (`npm install -D tally-harness`), here a link to this checkout.
    mkdirSync(join(world.project, 'node_modules'));
    symlinkSync(REPO, join(world.project, 'node_modules', 'tally-harness'));
    const market = localMarketplace(dir);
    expect((await claudeCommand(world, ['plugin', 'marketplace', 'add', market])).code).toBe(0);
    const installed = await claudeCommand(world, ['plugin', 'install', 'tally@tally-local']);
    expect(installed.code, installed.output).toBe(0);
    const run = await runClaude(world, 'create hello.txt', ['--allowedTools', 'Write']);
    expect(run.code, run.stderr).toBe(0);
    const denial = toolResults(run)[0]?.text ?? '';
    expect(denial).toContain(GATE);
    // The deny names the launcher of the marketplace's copy: the copy's hooks ran, not this checkout's.
    expect(denial).toContain(`node "${join(market, 'tally', 'bin', 'tally.js')}" scout`);
    expect(denial).not.toContain(PLUGIN);
    expect(existsSync(join(world.project, 'hello.txt'))).toBe(false);
  }, 90_000);
});
