import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../../helpers.js';

const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'tally.js');

/** No hook or records run may take longer than this (issue 9). */
export const LIMIT_MS = 10_000;

export interface BoundedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * The built CLI in a clean environment (no records, digest or fail-open settings; a private
 * user-level state folder), killed with SIGKILL if it outlives LIMIT_MS.
 */
export function runBounded(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): Promise<BoundedRun> {
  const started = performance.now();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    TALLY_RECORDS_ROOT: '',
    TALLY_RECORDS_STORES: '',
    TALLY_DIGEST_DIR: '',
    TALLY_FAIL_OPEN_LOG: '',
    TALLY_LEDGER: '',
    TALLY_MODEL: '',
    XDG_STATE_HOME: tempDir('tally-state-'),
    XDG_CACHE_HOME: tempDir('tally-cache-'),
    ...options.env,
  };
  delete env.TALLY_RECORDS_INDEX;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: options.cwd ?? tempDir(),
        timeout: LIMIT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? null) : 0,
          signal: (error as { signal?: NodeJS.Signals } | null)?.signal ?? null,
          stdout,
          stderr,
          ms: performance.now() - started,
        }),
    );
    // The CLI may stop reading an oversized payload: EPIPE here is expected, not a failure.
    child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
    child.stdin?.end(options.input ?? '');
  });
}

/** The built CLI as Claude Code runs a hook: payload on stdin, killed if it outlives 10 s. */
export function runHook(
  input: string,
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<BoundedRun> {
  return runBounded(['hook', 'digest-record'], { ...options, input });
}

/** A real FIFO (Node has no mkfifo). */
export function mkfifo(path: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('mkfifo', [path], (error) => (error ? reject(error) : resolve())),
  );
}
