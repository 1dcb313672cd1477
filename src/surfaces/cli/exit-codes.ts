import type { TallyErrorCode } from '../../core/errors.js';

/** Stable exit codes for every `tally` command. */
export const EXIT = {
  ok: 0,
  /** The job ran but what was asked for was not (fully) met. */
  notMet: 1,
  /** Usage or configuration error; nothing was done. */
  usage: 2,
  /** Could not run at all: a missing root, an unreadable ledger, a server that cannot be reached. */
  unavailable: 3,
  /** `tally verify`: the ledger does not reproduce the recorded verdict, or (--live) today's state drifted. */
  notReproduced: 4,
  /** Interrupted (SIGINT/SIGTERM): the run ended `aborted`, its summary printed. 128 + SIGINT. */
  interrupted: 130,
} as const;

/**
 * Tally error codes that mean "could not run at all" (exit 3) rather than "bad input" (exit 2);
 * every other TallyError exits 2. Typed by the code union: a misspelt code fails the type check.
 */
export const UNAVAILABLE_CODES = [
  'LEDGER_UNAVAILABLE',
  // A ledger that took no write within the busy limit: the command's entries are not recorded.
  'LEDGER_BUSY',
  'ROOT_NOT_FOUND',
  'STORE_UNREADABLE',
  'INDEX_UNAVAILABLE',
  'LOGIN_UNREACHABLE',
  'SERVER_UNREACHABLE',
  'NO_RECORD_STORES',
  'CLEANUP_RUNNING',
] as const satisfies readonly TallyErrorCode[];

/**
 * The one exit-code table: README's "Exit codes" table is checked against it and each row is
 * driven through the CLI by test/surfaces/exit-code-table.test.ts, so the three cannot drift.
 */
export const EXIT_CODE_TABLE: readonly { code: number; meaning: string; examples: string }[] = [
  {
    code: EXIT.ok,
    meaning: 'done: what was asked for was met',
    examples: '`tally demo`; `tally fish` with every item verified; `tally doctor` with nothing missing',
  },
  {
    code: EXIT.notMet,
    meaning: 'it ran, but what was asked for was not (fully) met',
    examples:
      'a partial `tally fish`; a `tally scout` that ended `failed` (nothing governs the goal: its report says `NOT FOUND`); `tally records lint` with problems; a failed cleanup; `tally doctor` with an optional piece missing',
  },
  {
    code: EXIT.usage,
    meaning: 'usage or configuration error; nothing was done',
    examples:
      'an unknown command or option; a request no model is configured for; a bad `--since`; a cleanup the server refuses (401) before it deletes anything',
  },
  {
    code: EXIT.unavailable,
    meaning: 'could not run at all',
    examples:
      'a ledger that is not a database; a missing root; no record stores; an unreachable `--base-url` or `--spec` URL; a port in use; another cleanup of the same run running',
  },
  {
    code: EXIT.notReproduced,
    meaning: 'the ledger does not reproduce the recorded verdict, or (`--live`) a resource drifted',
    examples:
      '`tally verify RUN` on a ledger edited by hand; `tally verify RUN --live` after a created item was deleted',
  },
  {
    code: EXIT.interrupted,
    meaning: 'interrupted (Ctrl-C, SIGTERM): the run ended `aborted`, its summary printed',
    examples: 'Ctrl-C during `tally fish`',
  },
];
