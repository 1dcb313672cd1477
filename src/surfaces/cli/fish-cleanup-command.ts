import type { Command } from 'commander';
import { authFailureText, type CleanupResult, cleanupRun } from '../../agents/fisherman/cleanup-run.js';
import { TallyError } from '../../core/errors.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { visibleControls } from '../visible-controls.js';
import { holdRunCleanupLock } from './cleanup-lock.js';
import { EXIT } from './exit-codes.js';
import { type FishFlags, headersFrom, loginFrom } from './fish-options.js';
import { formatTable } from './format-table.js';
import { type Interrupt, withInterrupt } from './interrupt.js';
import { ledgerPathHolding } from './known-ledgers.js';
import { ledgerPathFor, openLedgerAt } from './open-ledger.js';
import { observeRuns, runSurfacesOf } from './progress/observe-runs.js';

async function cleanOne(
  runId: string,
  options: FishFlags,
  ledger: Ledger,
  interrupt: Interrupt,
): Promise<CleanupResult> {
  const meta = (await ledger.getRun(runId)).run.meta as {
    baseUrl?: string;
    captures?: string[];
    specs?: string[];
    login?: string;
  };
  const headers = headersFrom(options.header);
  const release = await holdRunCleanupLock(ledger, runId);
  let result: CleanupResult;
  try {
    result = await cleanupRun({
      runId,
      ledger,
      captures: options.captures ?? meta.captures ?? [],
      // An achieve-mode run is cleaned through the same OpenAPI documents (and configured headers).
      ...(meta.specs ? { specs: meta.specs } : {}),
      ...((options.baseUrl ?? meta.baseUrl) ? { baseUrl: (options.baseUrl ?? meta.baseUrl) as string } : {}),
      ...loginFrom(options.login ?? meta.login),
      ...(headers ? { headers } : {}),
      signal: interrupt.signal,
      graceMs: interrupt.graceMs,
    });
  } finally {
    await release();
  }
  if (result.authFailed && !result.deletions.some((deletion) => deletion.outcome === 'deleted'))
    throw authError(result, options.login ?? meta.login, Boolean(headers));
  return result;
}

/**
 * Refused before anything was deleted: a usage error (exit 2) that says which credentials to
 * pass, not a table of 401s. The stopped cleanup run stays in the ledger as evidence.
 */
function authError(result: CleanupResult, runLogin: string | undefined, headersGiven: boolean): TallyError {
  const failure = result.authFailed as NonNullable<CleanupResult['authFailed']>;
  const used = runLogin
    ? ` The run logged in with --login ${runLogin}; pass --login again if that recipe no longer works.`
    : headersGiven
      ? ' The --header values given were refused.'
      : ' The run kept no credentials: if it used --header, pass the same --header values again.';
  return new TallyError(
    'AUTH_FAILED',
    `Cleanup of ${result.cleanedRunId} stopped, nothing deleted: ${authFailureText(failure)}.${used} Pass --login RECIPE (a form/JSON recipe, demo, or browser:SCRIPT) or --header "Authorization: Bearer $TOKEN". See \`tally runs show ${result.runId}\`.`,
    { runId: result.cleanedRunId, cleanupRunId: result.runId, ...failure },
  );
}

function formatCleanup(result: CleanupResult): string {
  const rows = result.deletions.map((deletion) => [
    deletion.type,
    deletion.id,
    `DELETE ${deletion.path}`,
    String(deletion.status ?? '-'),
    String(deletion.confirmStatus ?? deletion.beforeStatus ?? '-'),
    `${
      deletion.outcome === 'deleted'
        ? 'deleted'
        : deletion.outcome === 'already-gone'
          ? 'already gone'
          : `NOT confirmed${deletion.why ? `: ${deletion.why}` : ''}`
    }${deletion.foundBy === 'marker' ? ' (found by marker)' : ''}`,
  ]);
  const stopped = result.authFailed
    ? `Stopped: ${authFailureText(result.authFailed)}; nothing after it was sent. Pass --login RECIPE or --header "Name: value", then run it again.\n`
    : '';
  // Paths, ids and reasons come from the app: shown, never obeyed by the terminal.
  return visibleControls(
    `${formatTable(['TYPE', 'ID', 'REQUEST', 'STATUS', 'READ BACK', 'RESULT'], rows)}\n\n${result.summary}\n${stopped}cleanup run ${result.runId}\n`,
  );
}

const cleaned = (result: CleanupResult) =>
  result.status === 'success' && result.deletions.every((deletion) => deletion.ok);

/** `tally fish cleanup RUN [RUN…]`: each run cleaned in turn, newest given last. */
export default async function fishCleanupCommand(
  runIds: string[],
  ownOptions: FishFlags,
  command: Command,
): Promise<number> {
  // `fish cleanup RUN --json --login x`: commander hands flags after the subcommand that
  // `fish` also declares to `fish`; they were written for cleanup, so they count here.
  const options: FishFlags = { ...(command.parent?.opts() as FishFlags), ...ownOptions };
  // Each cleanup is recorded in the ledger that holds the run it cleans (any of the user's,
  // as `runs show` finds it); a run found nowhere is reported by this project's ledger.
  const ledgers = new Map<string, Ledger>();
  const ledgerOf = async (runId: string): Promise<Ledger> => {
    const path = (await ledgerPathHolding(command, runId)) ?? ledgerPathFor(command);
    let ledger = ledgers.get(path);
    if (!ledger) {
      ledger = await openLedgerAt(path);
      ledgers.set(path, ledger);
    }
    return ledger;
  };
  try {
    return await withInterrupt(async (interrupt) => {
      // Each cleanup is a run of its own, observed like `tally fish` (progress, --events, OTel).
      const results = await observeRuns(runSurfacesOf(command, ledgerPathFor(command)), async () => {
        const done: CleanupResult[] = [];
        for (const runId of runIds) {
          // After an interrupt no further cleanup starts; the one it stopped is reported.
          if (interrupt.signal.aborted) break;
          done.push(await cleanOne(runId, options, await ledgerOf(runId), interrupt));
        }
        return done;
      });
      if (options.json) {
        const output = results.length === 1 ? results[0] : results;
        process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
      } else {
        process.stdout.write(results.map(formatCleanup).join('\n'));
      }
      return results.length === runIds.length && results.every(cleaned) ? EXIT.ok : EXIT.notMet;
    });
  } finally {
    for (const ledger of ledgers.values()) await ledger.close();
  }
}
