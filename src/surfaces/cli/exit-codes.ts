/** Stable exit codes for every `tally` command. */
export const EXIT = {
  ok: 0,
  /** The job ran but what was asked for was not (fully) met. */
  notMet: 1,
  /** Usage or configuration error; nothing was done. */
  usage: 2,
  /** Could not run at all: a missing root, an unreadable ledger. */
  unavailable: 3,
  /** Interrupted (SIGINT/SIGTERM): the run ended `aborted`, its summary printed. 128 + SIGINT. */
  interrupted: 130,
} as const;
