import { EXIT } from './exit-codes.js';

/**
 * What became of the process's stdout and stderr. A failed write to either must never crash a
 * command: an unhandled stream 'error' (EPIPE after `| head`, ENOSPC on `>/dev/full`, EIO on a
 * terminal that hung up) would kill the process mid-run, leaving its run without an end entry
 * and a stack trace for a message. Instead the work goes on with the rest of that stream's
 * output dropped; a reader that went away (EPIPE) is the shell's ordinary end of output, any
 * other stdout failure is said once on stderr by `reportStdoutFailure` and fails the command.
 */
interface StreamFailures {
  stdout?: NodeJS.ErrnoException;
  /** process.stdout, once something used it: its last writes may still be settling. */
  stdoutStream?: NodeJS.WriteStream;
}

const failures: StreamFailures = {};

/** Records a failed write to stdout (EPIPE is not a failure: the reader stopped reading). */
export function noteStdoutFailure(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE' || failures.stdout) return;
  failures.stdout = error;
}

/** The first failure (not EPIPE) of a write to stdout, if one happened. */
export function stdoutFailure(): NodeJS.ErrnoException | undefined {
  return failures.stdout;
}

const guarded = new WeakSet<object>();

function guard(stream: NodeJS.WriteStream, name: 'stdout' | 'stderr'): NodeJS.WriteStream {
  if (guarded.has(stream)) return stream;
  guarded.add(stream);
  // stderr has nowhere left to say its own failure: its output is dropped quietly.
  if (name === 'stdout') failures.stdoutStream = stream;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (name === 'stdout') noteStdoutFailure(error);
  });
  return stream;
}

/**
 * Puts an 'error' listener on process.stdout and process.stderr as they are first used (Node
 * creates them lazily, and a short command that never touches them should not pay for them).
 */
export function guardStandardStreams(): void {
  for (const name of ['stdout', 'stderr'] as const) {
    const descriptor = Object.getOwnPropertyDescriptor(process, name);
    const get = descriptor?.get;
    if (!get || !descriptor.configurable) continue;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: descriptor.enumerable,
      get: () => guard(get.call(process) as NodeJS.WriteStream, name),
    });
  }
}

/** Waits until what was written to process.stdout has been written or has failed. */
function stdoutSettled(): Promise<void> {
  const stream = failures.stdoutStream;
  if (!stream) return Promise.resolve();
  // The 'error' event of a failed write comes on a later tick, before the loop's next turn.
  if (!stream.writable) return new Promise((resolve) => setImmediate(resolve));
  // Called back after every earlier write has been written or has failed.
  return new Promise((resolve) => stream.write('', () => setImmediate(resolve)));
}

/**
 * The exit code once output failed: says the failure on stderr and turns a success into 1 (the
 * command ran, but its output was not delivered); a failure code the command chose is kept.
 */
export async function reportStdoutFailure(code: number): Promise<number> {
  await stdoutSettled();
  const error = failures.stdout;
  if (!error) return code;
  process.stderr.write(
    `tally: could not write the output to stdout (${error.code ?? error.message}); the output is incomplete.\n`,
  );
  return code === EXIT.ok ? EXIT.notMet : code;
}
