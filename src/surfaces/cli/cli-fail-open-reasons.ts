import { declareFailOpenReasons } from '../../core/fail-open-reasons.js';

/**
 * The CLI's fail-open reasons, registered on load: after a run ended its result stands even when
 * these fail (an output file, the read-back), and a ledger left out of the user's list.
 */
export const CLI_FAIL_OPEN_REASONS = declareFailOpenReasons('cli', [
  'output-unwritable',
  'readback-failed',
  'registry-unwritable',
]);

export type CliFailOpenReason = (typeof CLI_FAIL_OPEN_REASONS)[number];
