import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGateHook } from '../../src/packs/gates/run-gate-hook.js';
import { tempDir } from '../helpers.js';

const REPO = join(import.meta.dirname, '..', '..');
const HOOK_BIN = join(REPO, 'bin', 'tally-hook.js');
const PLUGIN = join(REPO, 'plugin');
const FIXTURES = join(REPO, 'test', 'fixtures', 'hooks');

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
  mkdirSync(cwd);
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

const run = (s: Setup, name: Parameters<typeof runGateHook>[0], stdin: string) =>
  runGateHook(name, stdin, { env: s.env, cwd: s.cwd });

const decision = (stdout: string | undefined) => (stdout ? JSON.parse(stdout) : undefined);

describe('the turn gates, in process, on recorded payload shapes', () => {
  it('how-do-i: a write is denied until the skill ran this turn, naming exactly what satisfies it; then it passes', () => {
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
      expect(denied.hookSpecificOutput.permissionDecisionReason).toContain(
        'call the Skill tool with skill "tally:how-do-i"',
      );
    }
    for (const name of [
      'pre-tool-use-read.json',
      'pre-tool-use-bash-read-only.json',
      'pre-tool-use-skill.json',
    ]) {
      const report = run(s, 'gate-how-do-i', s.fixture(name));
      expect([report.stdout, report.failOpens]).toEqual([undefined, []]);
    }
    run(s, 'turn-record', s.fixture('post-tool-use-skill-how-do-i.json'));
    expect(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout).toBeUndefined();
    // A new prompt is a new turn: the gate closes again.
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    expect(decision(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout)).toBeDefined();
  });

  it('the scout agent spawned through Task satisfies it too; a failed skill does not', () => {
    const s = setup();
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    run(
      s,
      'turn-record',
      s.fixture('post-tool-use-skill-how-do-i.json', { tool_response: { success: false } }),
    );
    expect(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout).toBeDefined();
    run(s, 'turn-record', s.fixture('post-tool-use-task-scout.json'));
    expect(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout).toBeUndefined();
  });

  it('the legacy Skill input shape (`command`) counts', () => {
    const s = setup();
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    const legacy = JSON.parse(readFileSync(join(FIXTURES, 'post-tool-use-skill-legacy.json'), 'utf8'));
    run(
      s,
      'turn-record',
      JSON.stringify({ ...legacy, session_id: 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d', cwd: s.cwd }),
    );
    expect(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout).toBeUndefined();
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

  it('am-i-done releases when the review already ran this turn', () => {
    const s = setup();
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    s.transcript('transcript-writing-turn.jsonl');
    run(
      s,
      'turn-record',
      s.fixture('post-tool-use-skill-how-do-i.json', { tool_input: { skill: 'am-i-done' } }),
    );
    expect(run(s, 'gate-am-i-done', s.fixture('stop.json')).stdout).toBeUndefined();
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
      const report = runGateHook('gate-how-do-i', s.fixture('pre-tool-use-write.json'), {
        env: { ...s.env, [variable]: value },
        cwd: s.cwd,
      });
      expect(report).toMatchObject({ failOpens: [{ why: 'gate-disabled' }] });
      expect(report.notes[0]).toContain(`${variable}=${value}`);
    }
    s.transcript('transcript-writing-turn.jsonl');
    const stop = runGateHook('gate-am-i-done', s.fixture('stop.json'), {
      env: { ...s.env, CLAUDE_PLUGIN_OPTION_GATE_AM_I_DONE: 'false' },
      cwd: s.cwd,
    });
    expect(stop).toMatchObject({ failOpens: [{ why: 'gate-disabled' }] });
    // `true` is not off.
    const on = runGateHook('gate-how-do-i', s.fixture('pre-tool-use-write.json'), {
      env: { ...s.env, CLAUDE_PLUGIN_OPTION_GATE_HOW_DO_I: 'true' },
      cwd: s.cwd,
    });
    expect(on.stdout).toBeDefined();
  });

  it('without a project .tally, state lives in the user state folder and <cwd>/.tally is never created', () => {
    const s = setup({ tally: false });
    run(s, 'turn-reset', s.fixture('user-prompt-submit.json'));
    expect(existsSync(join(s.cwd, '.tally'))).toBe(false);
    expect(
      existsSync(join(s.dir, 'state', 'tally', 'gates', 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d.turn.json')),
    ).toBe(true);
    expect(decision(run(s, 'gate-how-do-i', s.fixture('pre-tool-use-write.json')).stdout)).toBeDefined();
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
