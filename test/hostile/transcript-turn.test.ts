import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTurnCheckHook } from '../../src/surfaces/claude-code/run-turn-check-hook.js';
import {
  readTranscriptTurn,
  TRANSCRIPT_TURN_MAX_BYTES,
} from '../../src/surfaces/claude-code/transcript-turn.js';
import { tempDir } from '../helpers.js';

const REPO = join(import.meta.dirname, '..', '..');
const FIXTURES = join(REPO, 'test', 'fixtures', 'hooks');

/** A project with `.tally`, the real plugin, and the recorded writing turn as its transcript. */
function setup() {
  const dir = tempDir();
  const cwd = join(dir, 'shop');
  mkdirSync(join(cwd, '.tally'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    HOME: join(dir, 'home'),
    XDG_STATE_HOME: join(dir, 'state'),
    PATH: process.env.PATH,
    CLAUDE_PLUGIN_ROOT: join(REPO, 'plugin'),
  };
  const fill = (text: string) => text.replaceAll('{{CWD}}', cwd).replaceAll('{{DIR}}', dir);
  const payload = (name: string) => fill(readFileSync(join(FIXTURES, name), 'utf8'));
  const transcript = join(dir, 'transcript.jsonl');
  const lines = payload('transcript-writing-turn.jsonl').trimEnd().split('\n');
  const hook = (name: 'turn-reset' | 'gate-am-i-done', file: string) =>
    runTurnCheckHook(name, payload(file), { env, cwd });
  hook('turn-reset', 'user-prompt-submit.json');
  return { dir, cwd, transcript, lines, hook };
}

/** Claude Code's shape for a Read call and its (one-line) result. */
function readOf(path: string, bytes: number, id: string): string[] {
  const use = { type: 'tool_use', id, name: 'Read', input: { file_path: path } };
  const result = { type: 'tool_result', tool_use_id: id, content: `     1\t${'x'.repeat(bytes)}` };
  return [
    JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [use] }, uuid: `a-${id}` }),
    JSON.stringify({ type: 'user', message: { role: 'user', content: [result] }, uuid: `u-${id}` }),
  ];
}

const end = JSON.stringify({
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' },
});

describe('am-i-done reads the whole current turn (issue 19, item 9)', () => {
  it('a turn that writes, then reads a 600 KiB file, is still asked for the review', () => {
    const s = setup();
    // The recorded turn up to the Edit and its result, then a big Read, then the end.
    writeFileSync(
      s.transcript,
      `${[...s.lines.slice(0, 7), ...readOf(`${s.cwd}/big.log`, 600 * 1024, 'big'), end].join('\n')}\n`,
    );
    const report = s.hook('gate-am-i-done', 'stop.json');
    expect(report.stdout).toBeDefined();
    const asked = JSON.parse(report.stdout as string);
    expect(asked).toMatchObject({ decision: 'block' });
    expect(asked.reason).toContain('1 call(s): Edit');
  });

  it('walks back across lines longer than its step and stops at the prompt', () => {
    const s = setup();
    const turn = [
      ...s.lines.slice(0, 2), // an earlier turn: its calls are not this turn's
      JSON.stringify({
        type: 'assistant',
        message: { content: [{ type: 'tool_use', name: 'Write', input: {} }] },
      }),
      ...s.lines.slice(2, 7),
      ...readOf('/a', 3 * 1024 * 1024 + 17, 'a'),
      '{not json',
      ...readOf('/b', 10, 'b'),
      end,
    ];
    writeFileSync(s.transcript, turn.join('\n')); // no final newline
    const read = readTranscriptTurn(s.transcript);
    expect(read).toMatchObject({ sawPrompt: true });
    expect('toolUses' in read && read.toolUses.map((use) => use.name)).toEqual([
      'Skill',
      'Edit',
      'Read',
      'Read',
    ]);
    // Without a prompt, the whole file is the turn.
    writeFileSync(s.transcript, `${turn.slice(4).join('\n')}\n`);
    const whole = readTranscriptTurn(s.transcript);
    expect(whole).toMatchObject({ sawPrompt: false });
    expect('toolUses' in whole && whole.toolUses.map((use) => use.name)).toEqual([
      'Skill',
      'Edit',
      'Read',
      'Read',
    ]);
    // Past the cap, the answer is "too large", never a partial list.
    expect(readTranscriptTurn(s.transcript, 2 * 1024 * 1024)).toEqual({
      tooLarge: { maxBytes: 2 * 1024 * 1024 },
    });
  });

  it(`a turn longer than ${TRANSCRIPT_TURN_MAX_BYTES / 1024 / 1024} MiB is asked for the review, not released unread`, () => {
    const s = setup();
    writeFileSync(s.transcript, `${s.lines.slice(0, 3).join('\n')}\n`);
    // Only reads after the prompt, but more of them than the cap: the gate cannot know.
    const mib = readOf('/log', 1024 * 1024, 'r').join('\n');
    for (let index = 0; index < 33; index += 1) appendFileSync(s.transcript, `${mib}\n${mib}\n`);
    appendFileSync(s.transcript, `${end}\n`);
    const started = performance.now();
    const report = s.hook('gate-am-i-done', 'stop.json');
    const elapsed = performance.now() - started;
    const asked = JSON.parse(report.stdout as string);
    expect(asked).toMatchObject({ decision: 'block' });
    expect(asked.reason).toMatch(/longer than 64 MiB, so Tally cannot tell what it changed/);
    // Asked once: the next stop of the turn is released.
    expect(s.hook('gate-am-i-done', 'stop.json').stdout).toBeUndefined();
    expect(elapsed).toBeLessThan(5_000);
  }, 30_000);
});
