import { DEFAULT_ABORT_GRACE_MS, endGracesNow } from '../../core/abort-grace.js';
import { commitOpenLedgers } from '../../core/ledger/open-ledgers.js';
import { STOP_SIGNALS } from '../stop-signals.js';
import { EXIT } from './exit-codes.js';

/** What a command that runs agents hands its runs: the abort, and the grace for calls in flight. */
export interface Interrupt {
  /** Aborted by the first SIGINT/SIGTERM/SIGHUP. */
  signal: AbortSignal;
  /** How long calls in flight at the interrupt get to settle before they are abandoned. */
  graceMs: number;
  /** The signal that arrived, if one did. */
  received(): NodeJS.Signals | undefined;
}

const MAX_GRACE_MS = 60_000;
/**
 * What "exiting now" still waits for: a PostgreSQL ledger's queued entries (SQLite's are written
 * synchronously on exit). A reachable server commits them in milliseconds; an unreachable one
 * gets this long, then they are lost (and said so). A third signal exits without waiting.
 */
export const HARD_EXIT_COMMIT_MS = 2_000;

/** `TALLY_INTERRUPT_GRACE_MS` (0–60000), else 5 s. */
export function interruptGraceMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.TALLY_INTERRUPT_GRACE_MS);
  if (!env.TALLY_INTERRUPT_GRACE_MS || !Number.isFinite(value) || value < 0) return DEFAULT_ABORT_GRACE_MS;
  return Math.min(Math.floor(value), MAX_GRACE_MS);
}

/**
 * Runs a command's work with SIGINT/SIGTERM/SIGHUP turned into an abort. The first signal aborts:
 * no new call starts, calls in flight get the grace to settle, each run ends `aborted` with
 * a summary from its ledger, and the command prints what it has and exits 130. A second
 * signal ends the grace at once: the calls in flight are abandoned (each with its entry, so
 * `fish cleanup` finds what they may have made) and the runs end `aborted` as after a grace;
 * whatever still holds the command after HARD_EXIT_COMMIT_MS is cut, the ledger committing what
 * it holds (SQLite on exit; PostgreSQL within HARD_EXIT_COMMIT_MS). A third exits at once.
 */
export async function withInterrupt(work: (interrupt: Interrupt) => Promise<number>): Promise<number> {
  const controller = new AbortController();
  const graceMs = interruptGraceMs();
  let received: NodeJS.Signals | undefined;
  let exiting = false;
  const onSignal = (name: NodeJS.Signals) => {
    if (exiting) process.exit(EXIT.interrupted);
    if (received) {
      exiting = true;
      process.stderr.write(
        `tally: ${name} again: exiting now — calls in flight are abandoned and the run ends as aborted (${name} a third time exits without waiting).\n`,
      );
      endGracesNow();
      setTimeout(
        () => void commitOpenLedgers(HARD_EXIT_COMMIT_MS).finally(() => process.exit(EXIT.interrupted)),
        HARD_EXIT_COMMIT_MS,
      ).unref();
      return;
    }
    received = name;
    process.stderr.write(
      `tally: ${name}: no new calls start; calls in flight get up to ${graceMs / 1000} s, then the run ends as aborted (${name} again exits now).\n`,
    );
    controller.abort(`interrupted by ${name}`);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  try {
    const code = await work({ signal: controller.signal, graceMs, received: () => received });
    return received ? EXIT.interrupted : code;
  } finally {
    for (const name of STOP_SIGNALS) process.off(name, onSignal);
  }
}
