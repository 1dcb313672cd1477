import { declareFailOpenReasons } from '../../core/fail-open-reasons.js';

/** Why a Claude Code turn-check hook released: the surface's own reasons, registered on load. */
export const HOOK_FAIL_OPEN_REASONS = declareFailOpenReasons('claude-code', [
  'skill-unresolvable',
  'gate-disabled',
  'gate-state-unreadable',
  'hook-unknown',
]);

export type HookFailOpenReason = (typeof HOOK_FAIL_OPEN_REASONS)[number];
