/**
 * The signals that stop a command or server as Ctrl-C does: SIGINT, SIGTERM, and SIGHUP (its
 * terminal closed — a window shut, an ssh session dropped). Each must still end its runs in the
 * ledger; Node's default for SIGHUP would kill the process on the spot.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
