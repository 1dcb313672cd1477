import { declareFailOpenReasons } from '../../core/fail-open-reasons.js';

/** The browser pack's fail-open reasons, registered on load (and declared by `browserPack`). */
export const BROWSER_FAIL_OPEN_REASONS = declareFailOpenReasons('browser', ['browser-unavailable']);
