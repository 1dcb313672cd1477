import { createFailOpen } from '../../core/fail-open.js';
import { hookFailOpenLog } from '../../packs/records/digests/hook-state.js';
import { EXIT } from './exit-codes.js';
// Registers hook-unknown.
import '../claude-code/hook-fail-open-reasons.js';

/**
 * `tally hook <name>` for a name this version does not know (a newer plugin, a typo): a hook
 * must never block its host, so it says so, logs `hook-unknown`, and exits 0.
 */
export default async function hookUnknownCommand(name: string | undefined): Promise<number> {
  process.stdin.resume();
  process.stdin.destroy();
  const shown = String(name ?? '(none)')
    .slice(0, 80)
    .replace(/[^\x20-\x7e]/g, '?');
  process.stderr.write(
    `tally hook: no hook named "${shown}" in this version (known: digest-record, turn-reset, turn-record, gate-how-do-i, gate-am-i-done); nothing done. Update Tally or fix the hook command.\n`,
  );
  try {
    const log = hookFailOpenLog(process.env, undefined);
    if (log) createFailOpen({ logPath: log })('hook', 'hook-unknown');
  } catch (error) {
    process.stderr.write(`tally hook: could not log it: ${String(error)}\n`);
  }
  return EXIT.ok;
}
