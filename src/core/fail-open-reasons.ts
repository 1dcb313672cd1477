/**
 * The closed vocabulary of fail-open reasons, declared in one place, plus those registered
 * by packs (each pack's own closed list, `registerFailOpenReasons`). A `why` outside both is
 * still recorded, as `unrecognized:<why>`, so a typo shows up in `tally stats`.
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

/** Reasons declared by packs, by reason → the pack that owns it (process-wide, like the packs). */
const REGISTERED = new Map<string, string>();

/** A pack's reason clashes with core's or another pack's: the vocabulary stays one meaning per word. */
export class FailOpenReasonTakenError extends TypeError {
  readonly code = 'FAIL_OPEN_REASON_TAKEN';
}

/**
 * Opens the vocabulary to a pack's declared reasons. Re-registering the same pack's reasons is
 * a no-op; a reason core or another pack already owns is refused, naming the owner.
 */
export function registerFailOpenReasons(owner: string, reasons: readonly string[]): void {
  for (const reason of reasons) {
    const holder = KNOWN.has(reason) ? 'core' : REGISTERED.get(reason);
    if (holder !== undefined && holder !== owner)
      throw new FailOpenReasonTakenError(
        `Fail-open reason "${reason}" of pack "${owner}" is already ${holder === 'core' ? "one of core's" : `declared by pack "${holder}"`}: name it after what failed in "${owner}" (e.g. "${owner}-${reason}").`,
      );
  }
  for (const reason of reasons) REGISTERED.set(reason, owner);
}

/** The pack that declared a reason, if a pack did. */
export function failOpenReasonOwner(why: string): string | undefined {
  return REGISTERED.get(why);
}

export function isFailOpenReason(why: string): boolean {
  return KNOWN.has(why) || REGISTERED.has(why);
}
