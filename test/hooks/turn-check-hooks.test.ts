import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDeterministicScout } from '../../src/agents/scout/deterministic-scout.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import { listStores } from '../../src/packs/records/stores.js';
import { runTurnCheckHook } from '../../src/surfaces/claude-code/run-turn-check-hook.js';
import { tempDir } from '../helpers.js';

const REPO = join(import.meta.dirname, '..', '..');
const HOOK_BIN = join(REPO, 'bin', 'tally-hook.js');
const PLUGIN = join(REPO, 'plugin');
const FIXTURES = join(REPO, 'test', 'fixtures', 'hooks');
/** Payloads recorded from the real Claude Code (see test/e2e/claude-code). */
const CC = 'claude-code-2.1.332';
const SESSION = 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

/**
 * A real scout run (the deterministic tier, as `tally scout --session` runs it) in the
 * project's ledger; `aborted` stops it before it reports.
 */
async function scoutRun(root: string, session: string, ending?: 'aborted'): Promise<string> {
  const ledger = Ledger.open(join(root, '.tally', 'ledger.db'));
  const source = openRecordSource(root, listStores(root));
  try {
    const controller = new AbortController();
    if (ending) controller.abort();
    const report = await runDeterministicScout({
      goal: 'create hello.txt',
      root,
      source,
      ledger,
      priorDigests: [],
      meta: { session },
      signal: controller.signal,
      graceMs: 0,
    });
    return report.result.runId;
  } finally {
    source.close();
    ledger.close();
  }
}

interface Setup {
  dir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  fixture: (name: string, patch?: Record<string, unknown>) => string;
  transcript: (name: string) => string;
}

/** A project with a `.tally` folder, the real plugin folder as CLAUDE_PLUGIN_ROOT, a private HOME. */
function setup(options: { plugin?: string | undefined; tally?: boolean } = {}): Setup {
  const dir = tempDir();
  const cwd = join(dir, 'shop');
  // A record store: the how-do-i gate holds only where there is something to consult.
  mkdirSync(join(cwd, 'references', 'decisions'), { recursive: true });
  if (options.tally !== false) mkdirSync(join(cwd, '.tally'));
  const plugin = 'plugin' in options ? options.plugin : PLUGIN;
  const env: NodeJS.ProcessEnv = {
    HOME: join(dir, 'home'),
    XDG_STATE_HOME: join(dir, 'state'),
    PATH: process.env.PATH,
    ...(plugin ? { CLAUDE_PLUGIN_ROOT: plugin } : {}),
  };
  const fill = (text: string) => text.replaceAll('{{CWD}}', cwd).replaceAll('{{DIR}}', dir);
  return {
    dir,
    cwd,
    env,
    fixture: (name, patch = {}) =>
      JSON.stringify({ ...JSON.parse(fill(readFileSync(join(FIXTURES, name), 'utf8'))), ...patch }),
    transcript: (name) => {
      writeFileSync(join(dir, 'transcript.jsonl'), fill(readFileSync(join(FIXTURES, name), 'utf8')));
      return join(dir, 'transcript.jsonl');
    },
  };
}

const run = (s: Setup, name: Parameters<typeof runTurnCheckHook>[0], stdin: string) =>
  runTurnCheckHook(name, stdin, { env: s.env, cwd: s.cwd });

const decision = (stdout: string | undefined) => (stdout ? JSON.parse(stdout) : undefined);

/**
 * What Claude Code acts on when the how-do-i gate holds: a PreToolUse `deny` whose reason
 * names the skill that would satisfy it. Anything else on stdout (an allow, a malformed line)
 * would let the write through or break the hook, so the whole decision is checked.
 */
function expectHowDoIDenial(stdout: string | undefined): void {
  expect(decision(stdout)).toMatchObject({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('skill "tally:how-do-i"'),
    },
  });
}

describe('the turn gates, in process, on recorded payload shapes', () => {
  it('how-do-i: a write is denied until this turn’s scout run is in the ledger, naming exactly what satisfies it; then it passes', async () => {
    const s = setup();
    expect(run(s, 'turn-reset', s.fixture('user-prompt-submit.json'))).toEqual({
      failOpens: [],
      notes: [],
      failOpenLog: join(s.cwd, '.tally', 'fail-open.jsonl'),
    });
    for (const name of [
      'pre-tool-use-write.json',
      'pre-tool-use-edit.json',
      'pre-tool-use-bash-writer.json',
    ]) {
      const denied = decision(run(s, 'gate-how-do-i', s.fixture(name)).stdout);
      expect(denied.hookSpecificOutput).toMatchObject({
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
      });
      const reason = denied.hookSpecificOutput.permissionDecisionReason;
      // The plugin's namespaced names, the launcher's path and this session: each way that satisfies it.
      expect(reason).toContain('the Skill tool with skill "tally:how-do-i"');
      expect(reason).toContain('the Agent tool with subagent_type "tally:scout"');
      expect(reason).toContain(`node "${PLUGIN}/bin/tally.js" scout "<goal>" --session ${SESSION}`);
      expect(reason).toContain(join(s.cwd, '.tally', 'ledger.db'));
    }
    for (const name of [
      'pre-tool-use-read.json',
      'pre-tool-use-bash-read-only.json',
      'pre-tool-use-skill.json',
    ]) {
      const report = run(s, 'gate-how-do-i', s.fixture(name));
      expect([report.stdout, report.failOpens]).toEqual([undefined, []]);
    }
    // The scout itself, through the plugin's launcher, is never held by the gate it opens.
    const scoutCommand = `node "${PLUGIN}/bin/tally.js" scout "create hello.txt" --session "${SESSION}" --model '\${user_config.scout_model}' --root '\${user_config.records_root}'`;
    expect(
      run(
        s,
        'gate-how-do-i',
        s.fixture('pre-tool-use-bash-writer.json', { tool_input: { command: scoutCommand } }),
      ).stdout,
    ).toBeUndefined();
    // ...but another script run by node is.
    expectHowDoIDenial(
      run(
        s,
        'gate-how-do-i',
        s.fixture('pre-tool-use-bash-writer.json', {
          tool_input: { command: `node "${s.dir}/bin/tally.js" scout x` },
        }),
      ).stdout,
    );
    const runId = await scoutRun(s.cwd, SESSION);
    expect(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout).toBeUndefined();
    const state = JSON.parse(readFileSync(join(s.cwd, '.tally', 'gates', `${SESSION}.turn.json`), 'utf8'));
    expect(state).toMatchObject({ scout: true, scoutRun: runId });
    // A new prompt is a new turn: the run of the turn before does not open it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    expectHowDoIDenial(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout);
  });

  it('what Claude Code 2.1.332 reports does not open it: a forked Skill’s success, an async_launched Agent; the run in the ledger does', async () => {
    const s = setup();
    const real = (name: string, patch: Record<string, unknown> = {}) =>
      JSON.stringify({
        ...JSON.parse(readFileSync(join(FIXTURES, CC, name), 'utf8')),
        session_id: SESSION,
        cwd: s.cwd,
        ...patch,
      });
    run(s, 'turn-reset', real('user-prompt-submit.json'));
    // The skill said success although its scout command was refused (issue 18): nothing in the ledger.
    run(s, 'turn-record', real('post-skill-forked.json'));
    run(s, 'turn-record', real('post-agent-async-launched.json'));
    expect(
      JSON.parse(readFileSync(join(FIXTURES, CC, 'post-agent-async-launched.json'), 'utf8')).tool_response
        .status,
    ).toBe('async_launched');
    const write = real('pre-write.json', {
      tool_input: { file_path: join(s.cwd, 'hello.txt'), content: 'hi' },
    });
    expect(decision(run(s, 'gate-how-do-i', write).stdout).hookSpecificOutput.permissionDecision).toBe(
      'deny',
    );
    // A run of another session, or a run that ended without a report, does not count either.
    await scoutRun(s.cwd, 'another-session');
    await scoutRun(s.cwd, SESSION, 'aborted');
    expectHowDoIDenial(run(s, 'gate-how-do-i', write).stdout);
    // The background agent finishes: its run is in the ledger; the notification prompt keeps the turn.
    const runId = await scoutRun(s.cwd, SESSION);
    run(s, 'turn-reset', real('user-prompt-submit-task-notification.json'));
    const opened = run(s, 'gate-how-do-i', write);
    expect([opened.stdout, opened.failOpens]).toEqual([undefined, []]);
    const state = JSON.parse(readFileSync(join(s.cwd, '.tally', 'gates', `${SESSION}.turn.json`), 'utf8'));
    expect(state.scoutRun).toBe(runId);
  });

  it('a task-notification prompt does not reset the turn; a typed prompt does', async () => {
    const s = setup();
    const real = (name: string) =>
      JSON.stringify({
        ...JSON.parse(readFileSync(join(FIXTURES, CC, name), 'utf8')),
        session_id: SESSION,
        cwd: s.cwd,
      });
    run(s, 'turn-reset', real('user-prompt-submit.json'));
    const file = join(s.cwd, '.tally', 'gates', `${SESSION}.turn.json`);
    const before = readFileSync(file, 'utf8');
    run(s, 'turn-reset', real('user-prompt-submit-task-notification.json'));
    expect(readFileSync(file, 'utf8')).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 5));
    run(s, 'turn-reset', real('user-prompt-submit.json'));
    expect(JSON.parse(readFileSync(file, 'utf8')).turn).not.toBe(JSON.parse(before).turn);
  });

  it('am-i-done counts only the calls that ran: a Write the gate denied (is_error) is no change', () => {
    const s = setup();
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    // Recorded from Claude Code 2.1.332: Write denied, the skill forked, Write again (ran).
    const lines = readFileSync(join(FIXTURES, CC, 'transcript-denied-write.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const path = join(s.dir, 'transcript.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const asked = decision(
      run(s, 'gate-am-i-done', s.fixture('stop.json', { transcript_path: path })).stdout,
    );
    expect(asked.reason).toContain('this turn changed things (1 call(s): Write)');
    // Cut after the denial: the only Write was denied, nothing changed, nothing to review.
    const denial = lines.findIndex((line) => line.includes('"is_error":true'));
    writeFileSync(path, `${lines.slice(0, denial + 1).join('\n')}\n`);
    const other = setup();
    run(other, 'turn-reset', other.fixture('user-prompt-submit.json'));
    const released = run(other, 'gate-am-i-done', other.fixture('stop.json', { transcript_path: path }));
    expect([released.stdout, released.failOpens]).toEqual([undefined, []]);
  });

  it('am-i-done counts work handed to a sub-agent: its calls are in another transcript (recorded from 2.1.332)', () => {
    // Each: the recorded turn, and how many of its lines Claude Code had written at that stop.
    const stops: [string, number | undefined, string][] = [
      // A `context: fork` skill whose sub-agent wrote hello.txt, then the model stopped.
      ['transcript-forked-skill-wrote.jsonl', undefined, '(1 call(s): Skill)'],
      // An async Agent that wrote it: the stop right after the launch…
      ['transcript-async-agent-wrote.jsonl', 4, '(1 call(s): Agent)'],
      // …and the stop after its <task-notification>, which continues the same turn.
      ['transcript-async-agent-wrote.jsonl', undefined, '(1 call(s): Agent)'],
    ];
    for (const [name, cut, what] of stops) {
      const s = setup();
      run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
      const lines = readFileSync(join(FIXTURES, CC, name), 'utf8')
        .trim()
        .split('\n')
        .slice(0, cut);
      const path = join(s.dir, 'transcript.jsonl');
      writeFileSync(path, `${lines.join('\n')}\n`);
      const asked = decision(
        run(s, 'gate-am-i-done', s.fixture('stop.json', { transcript_path: path })).stdout,
      );
      expect(asked?.reason, `${name} cut at ${cut}`).toContain(`this turn changed things ${what}`);
    }
  });

  it('am-i-done: the scout, spawned as an agent or run as the forked how-do-i skill, is no change', () => {
    const s = setup();
    const path = join(s.dir, 'transcript.jsonl');
    const line = (value: unknown) => JSON.stringify(value);
    const stopAfter = (call: Record<string, unknown>, result: Record<string, unknown> = {}) => {
      run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
      writeFileSync(
        path,
        [
          line({ type: 'user', message: { role: 'user', content: 'create hello.txt' } }),
          line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 't1', ...call }] } }),
          line({
            type: 'user',
            message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
            toolUseResult: result,
          }),
        ].join('\n'),
      );
      return run(s, 'gate-am-i-done', s.fixture('stop.json', { transcript_path: path })).stdout;
    };
    expect(
      stopAfter({ name: 'Agent', input: { subagent_type: 'tally:scout', prompt: 'x' } }),
    ).toBeUndefined();
    expect(
      stopAfter({ name: 'Skill', input: { skill: 'tally:how-do-i' } }, { status: 'forked' }),
    ).toBeUndefined();
    // A skill that did not fork ran its calls in this transcript: they are counted where they are.
    expect(stopAfter({ name: 'Skill', input: { skill: 'notes' } }, { success: true })).toBeUndefined();
    expect(stopAfter({ name: 'Skill', input: { skill: 'notes' } }, { status: 'forked' })).toContain('Skill');
    expect(stopAfter({ name: 'Task', input: { prompt: 'x' } })).toContain('Task');
  });

  it('am-i-done: asks once in a turn that wrote, releases the next stop, and releases conversational turns', () => {
    const s = setup();
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    s.transcript('transcript-writing-turn.jsonl');
    const asked = decision(run(s, 'gate-am-i-done', s.fixture('stop.json')).stdout);
    expect(asked).toMatchObject({ decision: 'block' });
    expect(asked.reason).toContain('call the Skill tool with skill "tally:am-i-done"');
    expect(asked.reason).toContain('Edit');
    expect(run(s, 'gate-am-i-done', s.fixture('stop.json')).stdout).toBeUndefined();
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    expect(
      run(s, 'gate-am-i-done', s.fixture('stop.json', { stop_hook_active: true })).stdout,
    ).toBeUndefined();
    s.transcript('transcript-conversational-turn.jsonl');
    expect(run(s, 'gate-am-i-done', s.fixture('stop.json'))).toMatchObject({ failOpens: [] });
  });

  it('am-i-done releases when the review ran after the turn’s changes, not when it ran before them', () => {
    const review = (id: string) => [
      JSON.stringify({
        type: 'assistant',
        message: { content: [{ type: 'tool_use', id, name: 'Skill', input: { skill: 'tally:am-i-done' } }] },
      }),
      JSON.stringify({
        type: 'user',
        message: {
          content: [{ type: 'tool_result', tool_use_id: id, content: 'Launching skill: tally:am-i-done' }],
        },
      }),
    ];
    const write = JSON.stringify({
      type: 'assistant',
      message: {
        content: [{ type: 'tool_use', id: 'w2', name: 'Write', input: { file_path: 'b.txt', content: 'x' } }],
      },
    });
    const stopWith = (extra: string[]) => {
      const s = setup();
      run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
      const path = s.transcript('transcript-writing-turn.jsonl');
      writeFileSync(path, `${readFileSync(path, 'utf8').trimEnd()}\n${extra.join('\n')}\n`);
      run(
        s,
        'turn-record',
        s.fixture('post-tool-use-skill-how-do-i.json', { tool_input: { skill: 'am-i-done' } }),
      );
      return run(s, 'gate-am-i-done', s.fixture('stop.json')).stdout;
    };
    // The Edit, then the review: released.
    expect(stopWith(review('r1'))).toBeUndefined();
    // The review, then a Write it never saw: asked (the review ran, but before this change).
    expect(decision(stopWith([...review('r1'), write])).reason).toContain(
      'this turn changed things (1 call(s): Write)',
    );
    // A review that failed (its result an error) is no review.
    const failed = review('r2');
    failed[1] = (failed[1] as string).replace('"tool_result",', '"tool_result","is_error":true,');
    expect(decision(stopWith(failed)).reason).toContain('(1 call(s): Edit)');
  });

  it('a gate whose skill is not installed releases and records skill-unresolvable', () => {
    const s = setup({ plugin: undefined });
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    const report = run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json'));
    expect(report.stdout).toBeUndefined();
    expect(report.failOpens).toEqual([
      { why: 'skill-unresolvable', session: 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d' },
    ]);
    expect(report.notes[0]).toMatch(/how-do-i skill is not installed .*Install the Tally plugin/);
    s.transcript('transcript-writing-turn.jsonl');
    expect(run(s, 'gate-am-i-done', s.fixture('stop.json')).failOpens[0]?.why).toBe('skill-unresolvable');
  });

  it('a skill in the project’s .claude/skills is named without the plugin prefix', () => {
    const s = setup({ plugin: undefined });
    mkdirSync(join(s.cwd, '.claude', 'skills', 'how-do-i'), { recursive: true });
    writeFileSync(join(s.cwd, '.claude', 'skills', 'how-do-i', 'SKILL.md'), '---\nname: how-do-i\n---\n');
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    const reason = decision(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout)
      .hookSpecificOutput.permissionDecisionReason;
    expect(reason).toContain('skill "how-do-i"');
  });

  it('a gate that cannot read its state releases and records gate-state-unreadable', () => {
    const s = setup();
    // No turn-reset: no state.
    const missing = run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json'));
    expect(missing).toMatchObject({ failOpens: [{ why: 'gate-state-unreadable' }] });
    // A corrupt state file, and a symlink planted as the state file.
    const file = join(s.cwd, '.tally', 'gates', 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d.turn.json');
    writeFileSync(file, '{not json');
    expect(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).failOpens[0]?.why).toBe(
      'gate-state-unreadable',
    );
    const other = setup();
    mkdirSync(join(other.cwd, '.tally', 'gates'), { recursive: true });
    writeFileSync(
      join(other.dir, 'elsewhere.json'),
      JSON.stringify({ v: 1, turn: 't', scout: true, reviewed: true, reviewAsked: true }),
    );
    symlinkSync(
      join(other.dir, 'elsewhere.json'),
      join(other.cwd, '.tally', 'gates', 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d.turn.json'),
    );
    const linked = run(other, 'gate-how-do-i', other.fixture('pre-tool-use-write.json'));
    expect(linked).toMatchObject({ failOpens: [{ why: 'gate-state-unreadable' }] });
    expect(linked.notes[0]).toMatch(/ELOOP/);
  });

  it('am-i-done releases when the transcript is missing, a FIFO, or not absolute', () => {
    const s = setup();
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    for (const path of [join(s.dir, 'missing.jsonl'), 'relative.jsonl', '/dev/zero', 42]) {
      const report = run(s, 'gate-am-i-done', s.fixture('stop.json', { transcript_path: path }));
      expect(report).toMatchObject({ failOpens: [{ why: 'gate-state-unreadable' }] });
    }
  });

  it('per-gate off switches release and log gate-disabled each time', () => {
    const s = setup();
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    for (const [variable, value] of [
      ['TALLY_GATE_HOW_DO_I', 'off'],
      ['CLAUDE_PLUGIN_OPTION_GATE_HOW_DO_I', 'false'],
      ['CLAUDE_PLUGIN_OPTION_gate_how_do_i', 'false'],
    ] as const) {
      const report = runTurnCheckHook('gate-how-do-i', s.fixture('pre-tool-use-write.json'), {
        env: { ...s.env, [variable]: value },
        cwd: s.cwd,
      });
      expect(report).toMatchObject({ failOpens: [{ why: 'gate-disabled' }] });
      expect(report.notes[0]).toContain(`${variable}=${value}`);
    }
    s.transcript('transcript-writing-turn.jsonl');
    const stop = runTurnCheckHook('gate-am-i-done', s.fixture('stop.json'), {
      env: { ...s.env, CLAUDE_PLUGIN_OPTION_GATE_AM_I_DONE: 'false' },
      cwd: s.cwd,
    });
    expect(stop).toMatchObject({ failOpens: [{ why: 'gate-disabled' }] });
    // `true` is not off.
    const on = runTurnCheckHook('gate-how-do-i', s.fixture('pre-tool-use-write.json'), {
      env: { ...s.env, CLAUDE_PLUGIN_OPTION_GATE_HOW_DO_I: 'true' },
      cwd: s.cwd,
    });
    expectHowDoIDenial(on.stdout);
    expect(on.failOpens).toEqual([]);
  });

  it('without a project .tally, state lives in the user state folder and <cwd>/.tally is never created', () => {
    const s = setup({ tally: false });
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    expect(existsSync(join(s.cwd, '.tally'))).toBe(false);
    expect(
      existsSync(join(s.dir, 'state', 'tally', 'gates', 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d.turn.json')),
    ).toBe(true);
    expectHowDoIDenial(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout);
  });

  it.each([
    ['not JSON', 'malformed-payload'],
    ['[1,2]', 'non-object-payload'],
    ['null', 'non-object-payload'],
    ['"a string"', 'non-object-payload'],
    [JSON.stringify({ hook_event_name: 'Stop', session_id: 's' }), 'payload-shape-unrecognized'],
  ])('a malformed payload (%j) releases and is recorded as %s', (stdin, why) => {
    const s = setup();
    for (const name of ['turn-reset', 'turn-record', 'gate-how-do-i'] as const) {
      const report = run(s, name, stdin);
      expect(report.stdout).toBeUndefined();
      expect(report.failOpens[0]?.why).toBe(why);
    }
  });

  it('hostile values in every field never produce a decision other than release or the deny/block shape', () => {
    const s = setup();
    const hostile: unknown[] = [
      null,
      0,
      -1,
      true,
      [],
      {},
      '',
      '\0',
      '../../etc/passwd',
      'x'.repeat(100_000),
      { toString: 1 },
      '${CLAUDE_SESSION_ID}',
    ];
    for (const value of hostile) {
      for (const field of [
        'session_id',
        'cwd',
        'tool_name',
        'tool_input',
        'transcript_path',
        'stop_hook_active',
        'hook_event_name',
      ]) {
        for (const name of ['turn-reset', 'turn-record', 'gate-how-do-i', 'gate-am-i-done'] as const) {
          const base = JSON.parse(
            s.fixture(
              name === 'gate-am-i-done'
                ? 'stop.json'
                : name === 'turn-reset'
                  ? 'user-prompt-submit.json'
                  : name === 'turn-record'
                    ? 'post-tool-use-skill-how-do-i.json'
                    : 'pre-tool-use-write.json',
            ),
          );
          const report = run(s, name, JSON.stringify({ ...base, [field]: value }));
          const out = decision(report.stdout);
          if (out)
            expect(out.decision === 'block' || out.hookSpecificOutput?.permissionDecision === 'deny').toBe(
              true,
            );
        }
      }
    }
  });
});

function hookProcess(
  name: string,
  input: string | Buffer,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = execFile(
      process.execPath,
      [HOOK_BIN, name],
      { env, cwd, maxBuffer: 1 << 24 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          stdout,
          stderr,
          ms: performance.now() - started,
        }),
    );
    child.stdin?.on('error', () => {}); // the hook may stop reading a huge payload early
    child.stdin?.end(input);
  });
}

describe('the hook processes (bin/tally-hook.js): exit 0, decision JSON, bounded time', () => {
  it('every hook, fed every recorded payload, exits 0 with either nothing or valid decision JSON on stdout', async () => {
    const s = setup();
    s.transcript('transcript-writing-turn.jsonl');
    const fixtures = [
      'user-prompt-submit.json',
      'pre-tool-use-write.json',
      'pre-tool-use-bash-read-only.json',
      'post-tool-use-skill-how-do-i.json',
      'post-tool-use-task-scout.json',
      'stop.json',
    ];
    for (const name of ['turn-reset', 'turn-record', 'gate-how-do-i', 'gate-am-i-done', 'digest-record']) {
      for (const fixture of fixtures) {
        const result = await hookProcess(name, s.fixture(fixture), s.env, s.cwd);
        expect(result.code, `${name} ${fixture}`).toBe(0);
        if (result.stdout.trim()) expect(() => JSON.parse(result.stdout)).not.toThrow();
      }
    }
  });

  it('the deny and the block come out on stdout in Claude Code’s shapes', async () => {
    const s = setup();
    await hookProcess('turn-reset', s.fixture('user-prompt-submit.json'), s.env, s.cwd);
    const denied = await hookProcess('gate-how-do-i', s.fixture('pre-tool-use-write.json'), s.env, s.cwd);
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    s.transcript('transcript-writing-turn.jsonl');
    const blocked = await hookProcess('gate-am-i-done', s.fixture('stop.json'), s.env, s.cwd);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ decision: 'block', reason: expect.any(String) });
  });

  it('malformed, empty, binary and huge payloads: exit 0, no decision, in bounded time', async () => {
    const s = setup();
    const inputs: (string | Buffer)[] = [
      '',
      '{',
      Buffer.from([0xff, 0xfe, 0x00, 0x01]),
      `{"tool_name":"Write","tool_input":{"content":"${'a'.repeat(17 * 1024 * 1024)}"}}`,
      `${'['.repeat(100_000)}`,
    ];
    for (const input of inputs) {
      const result = await hookProcess('gate-how-do-i', input, s.env, s.cwd);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.ms).toBeLessThan(15_000);
    }
  });

  it('the CLI path (`tally hook gate-how-do-i`) gives the same decision', async () => {
    const s = setup();
    await hookProcess('turn-reset', s.fixture('user-prompt-submit.json'), s.env, s.cwd);
    const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [join(REPO, 'bin', 'tally.js'), 'hook', 'gate-how-do-i'],
        { env: s.env, cwd: s.cwd },
        (error, stdout) => resolve({ code: error ? 1 : 0, stdout }),
      );
      child.stdin?.end(s.fixture('pre-tool-use-write.json'));
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('the how-do-i gate without record stores', () => {
  it('releases a write with a note where the project has no record store: no scout run could ever open it', () => {
    const s = setup();
    rmSync(join(s.cwd, 'references'), { recursive: true });
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    const report = run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json'));
    expect(decision(report.stdout)).toBeUndefined();
    expect(report.notes.join('\n')).toContain(`no record stores under ${s.cwd}`);
    // The same turn with a store is held.
    mkdirSync(join(s.cwd, 'references', 'decisions'), { recursive: true });
    expect(decision(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny' },
    });
  });
});
