import { declareFailOpenReasons } from '../../core/fail-open-reasons.js';

/**
 * The MCP surface's fail-open reasons, registered on load: a client's roots/list went
 * unanswered; a promise rejected with nobody waiting.
 */
export const MCP_FAIL_OPEN_REASONS = declareFailOpenReasons('mcp', [
  'roots-unavailable',
  'unhandled-rejection',
]);
