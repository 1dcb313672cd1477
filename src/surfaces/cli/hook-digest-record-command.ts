import { createFailOpen } from '../../core/fail-open.js';
import { hookFailOpenLog } from '../../packs/records/digests/hook-state.js';
import { recordDigestFromHook } from '../../packs/records/digests/record-digest-from-hook.js';
import { EXIT } from './exit-codes.js';
import { readHookStdin } from './hook-read-stdin.js';

/** A digest is a few KiB; a payload past this is not one, and reading on would only cost memory. */
export const MAX_HOOK_PAYLOAD_BYTES = 16 * 1024 * 1024;

/**
 * `tally hook digest-record` (Claude Code PostToolUse, Skill): stores the scout's digest for
 * the session. Always exits 0, in bounded time (stdin is read within a deadline): its own
 * faults become fail-open lines.
 */
export default async function hookDigestRecordCommand(): Promise<number> {
  let phase: 'malformed-payload' | 'store-unwritable' = 'malformed-payload';
  try {
    // The same size cap and 10 s deadline as the gate hooks: a host that holds stdin open
    // is not waited on forever.
    const stdin = await readHookStdin(process.stdin, { maxBytes: MAX_HOOK_PAYLOAD_BYTES });
    phase = 'store-unwritable';
    const report = recordDigestFromHook(stdin.text, {
      env: process.env,
      cwd: process.cwd(),
      ...(stdin.problem ? { oversized: stdin.problem } : {}),
    });
    for (const note of report.notes) process.stderr.write(`tally hook digest-record: ${note}\n`);
    if (report.failOpens.length > 0) {
      if (!report.failOpenLog)
        process.stderr.write(
          'tally hook digest-record: no folder is Tally’s here; the reason is not logged.\n',
        );
      else {
        const failOpen = createFailOpen({ logPath: report.failOpenLog });
        for (const line of report.failOpens) failOpen('hook-digest-record', line.why, line.session);
      }
    }
  } catch (error) {
    // A hook must never fail its host: a fault of ours is reported and logged, not raised.
    process.stderr.write(
      `tally hook digest-record: ${phase} (${error instanceof Error ? error.message : String(error)}); nothing recorded.\n`,
    );
    try {
      const log = hookFailOpenLog(process.env, undefined);
      if (log) createFailOpen({ logPath: log })('hook-digest-record', phase);
    } catch (logError) {
      process.stderr.write(`tally hook digest-record: could not log the fault either: ${String(logError)}\n`);
    }
  }
  return EXIT.ok;
}
