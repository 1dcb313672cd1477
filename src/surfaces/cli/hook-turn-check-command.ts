import type { Command } from 'commander';
import { hookFailOpenLog } from '../../packs/records/digests/hook-state.js';
import {
  runTurnCheckHook,
  TURN_CHECK_HOOKS,
  type TurnCheckHookName,
} from '../../surfaces/claude-code/run-turn-check-hook.js';
import { EXIT } from './exit-codes.js';
import { readHookStdin } from './hook-read-stdin.js';
// Registers the reasons this hook records (gate-state-unreadable before the check loads).
import '../claude-code/hook-fail-open-reasons.js';

export function isTurnCheckHook(name: unknown): name is TurnCheckHookName {
  return (TURN_CHECK_HOOKS as readonly unknown[]).includes(name);
}

/**
 * `tally hook turn-reset | turn-record | gate-how-do-i | gate-am-i-done`: reads Claude Code's
 * payload on stdin, prints the decision JSON (if any) on stdout, and always exits 0 — its own
 * faults become fail-open lines and a release.
 */
export async function runTurnCheckCommand(name: TurnCheckHookName): Promise<number> {
  const component = `hook-${name}`;
  try {
    const stdin = await readHookStdin();
    const report = runTurnCheckHook(name, stdin.text, {
      env: process.env,
      cwd: process.cwd(),
      ...(stdin.problem ? { stdinProblem: stdin.problem } : {}),
    });
    for (const note of report.notes) process.stderr.write(`tally hook ${name}: ${note}\n`);
    if (report.failOpens.length > 0) {
      if (!report.failOpenLog)
        process.stderr.write(`tally hook ${name}: no folder is Tally’s here; the reason is not logged.\n`);
      else {
        // Loaded only when there is something to log: most gate calls pass and log nothing.
        const { createFailOpen } = await import('../../core/fail-open.js');
        const failOpen = createFailOpen({ logPath: report.failOpenLog });
        for (const line of report.failOpens) failOpen(component, line.why, line.session);
      }
    }
    if (report.stdout) process.stdout.write(`${report.stdout}\n`);
  } catch (error) {
    // A hook must never fail its host: a fault of ours releases the gate and is logged.
    process.stderr.write(
      `tally hook ${name}: ${error instanceof Error ? error.message : String(error)}; released.\n`,
    );
    try {
      const log = hookFailOpenLog(process.env, undefined);
      const { createFailOpen } = await import('../../core/fail-open.js');
      if (log) createFailOpen({ logPath: log })(component, 'gate-state-unreadable');
    } catch (logError) {
      process.stderr.write(`tally hook ${name}: could not log the fault either: ${String(logError)}\n`);
    }
  }
  return EXIT.ok;
}

/** Commander's entry: the subcommand's own name says which gate hook runs. */
export default async function hookTurnCheckCommand(...args: unknown[]): Promise<number> {
  const command = args.at(-1) as Command;
  const name = command.name();
  return isTurnCheckHook(name) ? runTurnCheckCommand(name) : EXIT.ok;
}
