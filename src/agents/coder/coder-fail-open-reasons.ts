import { declareFailOpenReasons } from '../../core/fail-open-reasons.js';

/** The Coder's fail-open reasons, registered on load: a turn's result stands without its decision records. */
export const CODER_FAIL_OPEN_REASONS = declareFailOpenReasons('coder', ['decision-extraction-failed']);
