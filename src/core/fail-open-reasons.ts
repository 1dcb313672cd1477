import { DECLARATION_ERROR } from './errors.js';
/**
 * Core's closed vocabulary of fail-open reasons, plus those registered by their owners: a
 * pack's declared list (`definePack({ failOpenReasons })`), an agent's or a surface's
 * (`declareFailOpenReasons`, loaded with the module that records them, so a hook process that
 * loads nothing else still knows its own). A `why` outside all of them is still recorded, as
 * `unrecognized:<why>`, so a typo shows up in `tally stats`.
 */
export const FAIL_OPEN_REASONS = [
  'gate-tool-unregistered',
  'ledger-unavailable',
  'verifier-threw',
  'review-threw',
  'contract-threw',
  'telemetry-unavailable',
  // core/io's private state directories (every store kept under one refuses the same way)
  'store-unwritable',
  'state-dir-unowned',
] as const;

export type FailOpenReason = (typeof FAIL_OPEN_REASONS)[number];

const KNOWN = new Set<string>(FAIL_OPEN_REASONS);

/** Reasons declared outside core, by reason → its owner (process-wide, like the packs). */
const REGISTERED = new Map<string, string>();

/** A pack's reason clashes with core's or another pack's: the vocabulary stays one meaning per word. */
export class FailOpenReasonTakenError extends TypeError {
  readonly code = 'FAIL_OPEN_REASON_TAKEN';
  readonly [DECLARATION_ERROR] = true;
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

/**
 * An owner's closed list of reasons (an agent, a surface, a pack's module), registered as the
 * module that declares it loads: `export const MY_REASONS = declareFailOpenReasons('mine', [...])`.
 */
export function declareFailOpenReasons<const Reasons extends readonly string[]>(
  owner: string,
  reasons: Reasons,
): Reasons {
  registerFailOpenReasons(owner, reasons);
  return reasons;
}

/** The owner that declared a reason, if not core. */
export function failOpenReasonOwner(why: string): string | undefined {
  return REGISTERED.get(why);
}

export function isFailOpenReason(why: string): boolean {
  return KNOWN.has(why) || REGISTERED.has(why);
}
