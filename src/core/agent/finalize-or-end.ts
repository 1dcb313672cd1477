import { errorMessage } from '../errors.js';
import type { RunResult } from './ending.js';
import { type FinalizeInput, finalize } from './finalize-run.js';

/**
 * `finalize`, and when judging the run throws (an agent's hook, a malformed tool definition
 * from plain JavaScript), the run still ends: one `end` entry, `failed`, saying it could not be
 * judged and why — a run always ends, whatever its code does. The error is thrown on, so the
 * caller hears it too.
 */
export async function finalizeOrEnd(input: FinalizeInput): Promise<RunResult> {
  try {
    return await finalize(input);
  } catch (error) {
    const { recorder } = input;
    if (!recorder.entries().some((entry) => entry.kind === 'end')) {
      const why = recorder.redactor.redactText(errorMessage(error));
      recorder.append({
        kind: 'end',
        name: 'aborted',
        outcome: 'aborted',
        data: {
          reason: 'aborted',
          status: 'failed',
          summary: `Not done: the run could not be judged (${why}), so nothing it made is verified. Its calls are in the ledger: tally runs show ${recorder.runId}.`,
          verified: 0,
          dropped: 0,
          unmet: [`the run could not be judged: ${why}`],
          counts: input.counts,
          detail: `internal error: ${why}`,
          checks: { ending: 'other', reason: 'aborted' },
        },
      });
    }
    throw error;
  }
}
