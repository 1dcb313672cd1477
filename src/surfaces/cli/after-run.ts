import { createFailOpen } from '../../core/fail-open.js';
// Registers the CLI's reasons.
import './cli-fail-open-reasons.js';
import type { CliFailOpenReason } from './cli-fail-open-reasons.js';

/**
 * Something that failed after a run ended (a file the command was to write, a digest, a
 * read-back): the run's result stands, so it becomes a fail-open and a warning, never a throw.
 */
export function afterRunWarning(
  failOpenLog: string,
  runId: string,
  warning: string,
  why: CliFailOpenReason = 'output-unwritable',
): string {
  createFailOpen({ logPath: failOpenLog })('cli', why, runId);
  return warning;
}
