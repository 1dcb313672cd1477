import { declareFailOpenReasons } from '../../core/fail-open-reasons.js';

/** The Fisherman's fail-open reasons, registered on load: a run's result stands without its saved recipe. */
export const FISHERMAN_FAIL_OPEN_REASONS = declareFailOpenReasons('fisherman', ['recipe-unwritable']);
