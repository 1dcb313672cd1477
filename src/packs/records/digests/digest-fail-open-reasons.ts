import { declareFailOpenReasons } from '../../../core/fail-open-reasons.js';

/**
 * Why a Claude Code hook payload or a digest setting was passed over: the records pack's own
 * reasons, registered when this module loads (every hook process loads it with `hook-state`).
 */
export const DIGEST_FAIL_OPEN_REASONS = declareFailOpenReasons('records', [
  'malformed-payload',
  'non-object-payload',
  'payload-shape-unrecognized',
  'digest-setting-invalid',
]);

export type DigestFailOpenReason = (typeof DIGEST_FAIL_OPEN_REASONS)[number];
