/**
 * The closed vocabulary of fail-open reasons, declared in one place. A `why` outside this
 * list is still recorded, as `unrecognized:<why>`, so a typo shows up in `tally stats`.
 */
export const FAIL_OPEN_REASONS = [
  // core
  'gate-tool-unregistered',
  'gate-state-unreadable',
  'ledger-unavailable',
  'verifier-threw',
  'review-threw',
  'contract-threw',
  'telemetry-unavailable',
  'registry-unwritable',
  // records, digests and Claude Code hooks
  'store-unwritable',
  'malformed-payload',
  'non-object-payload',
  'payload-shape-unrecognized',
  'skill-unresolvable',
  'gate-disabled',
  'index-unwritable',
  'digest-setting-invalid',
  'state-dir-unowned',
  'hook-unknown',
  // workspace and coder
  'decision-extraction-failed',
  'browser-unavailable',
  // MCP surface: a client's roots/list went unanswered; a promise rejected with nobody waiting
  'roots-unavailable',
  'unhandled-rejection',
  // after a run ended: its result stands even when these writes fail
  'recipe-unwritable',
  'output-unwritable',
  'readback-failed',
] as const;

export type FailOpenReason = (typeof FAIL_OPEN_REASONS)[number];

const KNOWN = new Set<string>(FAIL_OPEN_REASONS);

export function isFailOpenReason(why: string): why is FailOpenReason {
  return KNOWN.has(why);
}
