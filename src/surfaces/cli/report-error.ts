import { visibleControls } from '../visible-controls.js';
import { describeError } from './describe-error.js';

export interface ReportErrorOptions {
  /** `--json`: the error goes to stdout as `{ "error": { code, message, details } }`. */
  json?: boolean;
  /** `--debug`: the stack trace too (stderr), for every error. */
  debug?: boolean;
}

/** Prints an error the user can act on and returns the stable exit code for it. */
export function reportError(error: unknown, options: ReportErrorOptions = {}): number {
  const described = describeError(error);
  if (options.debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  if (options.json) {
    const { code, message, details } = described;
    process.stdout.write(`${JSON.stringify({ error: { code, message, details } }, null, 2)}\n`);
  } else {
    // A message may quote an app's answer or a file name: shown, never obeyed by the terminal.
    process.stderr.write(`tally: ${visibleControls(described.message)}\n`);
  }
  return described.exit;
}

/** Reads `--json` and `--debug` from the raw arguments, so even a parse error honours them. */
export function errorOptionsFrom(argv: string[]): ReportErrorOptions {
  const end = argv.indexOf('--');
  const flags = new Set(end === -1 ? argv.slice(2) : argv.slice(2, end));
  return {
    json: flags.has('--json'),
    debug: flags.has('--debug') || process.env.TALLY_DEBUG === '1',
  };
}
