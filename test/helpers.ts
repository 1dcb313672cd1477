import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Ledger, type SqliteLedger } from '../src/core/ledger/ledger.js';

const cleanups: (() => void)[] = [];

afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A fresh temp directory, removed after the test. */
export function tempDir(prefix = 'tally-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real ledger file in a fresh temp directory. */
export function tempLedger(): SqliteLedger {
  const ledger = Ledger.open(join(tempDir(), '.tally', 'ledger.db'));
  cleanups.unshift(() => ledger.close());
  return ledger;
}

export const TALLY_BIN = join(import.meta.dirname, '..', 'bin', 'tally.js');

export interface TallyRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `tally` CLI as a user would, in a clean environment (no inherited ledger,
 * model or records settings), optionally with stdin.
 */
export function runTally(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<TallyRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [TALLY_BIN, ...args],
      {
        cwd: options.cwd ?? tempDir(),
        env: {
          ...process.env,
          NO_COLOR: '1',
          TALLY_LEDGER: '',
          TALLY_MODEL: '',
          TALLY_RECORDS_ROOT: '',
          TALLY_RECORDS_STORES: '',
          // The user-level list of ledgers goes to a fresh folder, never the real user's.
          XDG_STATE_HOME: tempDir('tally-state-'),
          ...options.env,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

/**
 * Runs a command (a `tally` bin and its arguments) whose requests go to `hanging`, a server that
 * accepts them and never answers, and sends `signal` once the first request arrives: the run is
 * under way, its creates in flight. Returns the exit code and what it printed.
 */
export async function interruptOnFirstRequest(
  command: { bin: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv },
  hanging: Server,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [command.bin, ...command.args], {
    cwd: command.cwd,
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve) => hanging.once('request', () => resolve()));
  child.kill(signal);
  return { code: await exited, stdout };
}
