// Hook latency: Claude Code runs PreToolUse on every tool call, so a gate must cost about what
// starting node costs. Each case runs interleaved with `node -e 0` (same load on both).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from '../measure.js';

const REPO = join(import.meta.dirname, '..', '..');
// What Claude Code runs: the plugin's launcher (hooks/hooks.json).
const HOOK_BIN = join(REPO, 'plugin', 'bin', 'tally-hook.js');
const CLI_BIN = join(REPO, 'bin', 'tally.js');
const PAIRS = Number(process.env.TALLY_BENCH_HOOK_PAIRS ?? 21);
const TARGET = 1.3;

/** Runs a process to its end; exit codes other than `okCodes` reject. */
function run(args: string[], input: string, env: NodeJS.ProcessEnv, okCodes = [0]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = execFile(process.execPath, args, { env }, (error) =>
      error && !okCodes.includes(Number(error.code)) ? reject(error) : resolve(performance.now() - started),
    );
    child.stdin?.end(input);
  });
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function hooksBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-hook-bench-'));
  try {
    const project = join(dir, 'project');
    const plugin = join(REPO, 'plugin');
    mkdirSync(join(project, '.tally'), { recursive: true });
    // A record store: the how-do-i gate holds only where there is something to consult.
    mkdirSync(join(project, 'references', 'decisions'), { recursive: true });
    const env = { ...process.env, XDG_STATE_HOME: join(dir, 'state'), CLAUDE_PLUGIN_ROOT: plugin };
    const payload = (extra: object) =>
      JSON.stringify({ session_id: 'bench', cwd: project, transcript_path: join(dir, 't.jsonl'), ...extra });
    writeFileSync(join(dir, 't.jsonl'), `${JSON.stringify({ type: 'user', message: { content: 'hi' } })}\n`);
    await run([HOOK_BIN, 'turn-reset'], payload({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' }), env);
    // Projects whose ledger holds a scout run of another session, so a denied Write looks for
    // this turn's run: `older` was last written before the turn began (the gate sees it from the
    // files' mtime and does not open it); `fresh` was written during the turn by another session's
    // scout (no marker of this session beside it, so SQLite is not opened either).
    const ledgerProject = async (name: string) => {
      const root = join(dir, name);
      mkdirSync(join(root, '.tally'), { recursive: true });
      mkdirSync(join(root, 'references', 'decisions'), { recursive: true });
      const at = (extra: object) =>
        JSON.stringify({ session_id: 'bench', cwd: root, transcript_path: join(dir, 't.jsonl'), ...extra });
      // The store is empty, so the scout's run ends `stopped` (exit 1): recorded all the same.
      const scout = () =>
        run([CLI_BIN, 'scout', 'release a version', '--root', root, '--session', 'other'], '', env, [0, 1]);
      return { root, at, scout };
    };
    const older = await ledgerProject('older');
    await older.scout();
    const past = new Date(Date.now() - 60_000);
    for (const file of readdirSync(join(older.root, '.tally')))
      if (file.startsWith('ledger.db')) utimesSync(join(older.root, '.tally', file), past, past);
    await run([HOOK_BIN, 'turn-reset'], older.at({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' }), env);
    const fresh = await ledgerProject('fresh');
    await run([HOOK_BIN, 'turn-reset'], fresh.at({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' }), env);
    await fresh.scout();
    const write = {
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: '/x', content: 'y' },
    };
    const cases: [string, string[], string][] = [
      [
        'tally-hook gate-how-do-i (Read: passes)',
        [HOOK_BIN, 'gate-how-do-i'],
        payload({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/x' } }),
      ],
      [
        'tally-hook gate-how-do-i (Bash ls: classified)',
        [HOOK_BIN, 'gate-how-do-i'],
        payload({
          hook_event_name: 'PreToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'git log -5 | head' },
        }),
      ],
      [
        'tally-hook gate-how-do-i (Write: denied)',
        [HOOK_BIN, 'gate-how-do-i'],
        payload({
          hook_event_name: 'PreToolUse',
          tool_name: 'Write',
          tool_input: { file_path: '/x', content: 'y' },
        }),
      ],
      [
        'tally-hook gate-how-do-i (Write: denied, ledger older than the turn)',
        [HOOK_BIN, 'gate-how-do-i'],
        older.at(write),
      ],
      [
        'tally-hook gate-how-do-i (Write: denied, ledger written this turn by another session)',
        [HOOK_BIN, 'gate-how-do-i'],
        fresh.at(write),
      ],
      [
        'tally-hook turn-reset',
        [HOOK_BIN, 'turn-reset'],
        payload({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' }),
      ],
      [
        'tally-hook gate-am-i-done (conversational)',
        [HOOK_BIN, 'gate-am-i-done'],
        payload({ hook_event_name: 'Stop', stop_hook_active: false }),
      ],
      [
        'tally hook gate-how-do-i (through the CLI)',
        [CLI_BIN, 'hook', 'gate-how-do-i'],
        payload({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: {} }),
      ],
    ];
    const rows: BenchRow[] = [];
    for (const [name, args, input] of cases) {
      const hook: number[] = [];
      const bare: number[] = [];
      for (let pair = 0; pair < PAIRS; pair++) {
        if (pair % 2 === 0) {
          hook.push(await run(args, input, env));
          bare.push(await run(['-e', '0'], '', env));
        } else {
          bare.push(await run(['-e', '0'], '', env));
          hook.push(await run(args, input, env));
        }
      }
      const ratio = median(hook) / median(bare);
      rows.push({
        name,
        value: `${median(hook).toFixed(1)} ms`,
        baseline: `node -e 0 ${median(bare).toFixed(1)} ms`,
        ratio: `${ratio.toFixed(2)}×`,
        ...(args[0] === HOOK_BIN ? { target: `≤ ${TARGET}×`, pass: ratio <= TARGET } : {}),
      });
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
