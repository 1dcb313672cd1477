import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import pc from 'picocolors';
import { prepareData } from '../../agents/fisherman/prepare-data.js';
import { type ReadBackResult, readBackRun } from '../../agents/fisherman/read-back-run.js';
import { errorMessage } from '../../core/errors.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { startDemoApp } from '../../demo-app/server.js';
import { DEMO_LOGIN } from '../../packs/http/client/login-recipe.js';
import { requireRecorded, usingLedger } from '../require-recorded.js';
import { afterRunWarning } from './after-run.js';
import { EXIT } from './exit-codes.js';
import { formatFishResult } from './format-fish.js';
import { formatTable, truncate } from './format-table.js';
import { type Interrupt, withInterrupt } from './interrupt.js';
import { openLedgerFor } from './open-ledger.js';
import { observeRuns, runSurfacesOf } from './progress/observe-runs.js';

export const DEMO_HAR = fileURLToPath(new URL('../../../demo/captures/demo-app.har', import.meta.url));
export const DEMO_REQUEST = '2 suites with 3 tests each';
export const DEMO_SCOPE = '/projects/alpha-shop';

/**
 * The main job on embedded defaults: start the demo app, import the bundled HAR (recorded
 * against another port), log in now, prepare "2 suites with 3 tests each" in one project,
 * and prove through the app's own API that every item exists — a recorded read-back run of
 * its own (`fisherman-read-back`), so `tally runs show` and the report show that proof too.
 */
export default async function demoCommand(options: { json?: boolean }, command: Command): Promise<number> {
  // The ledger first: a ledger that cannot open must end the command, and the app's listening
  // server would keep the process alive past the error.
  const ledger = await openLedgerFor(command);
  return await usingLedger(ledger, async () => {
    const app = await startDemoApp();
    try {
      return await withInterrupt((interrupt) => runDemo(app.url, ledger, options, command, interrupt));
    } finally {
      await app.close();
    }
  });
}

async function runDemo(
  url: string,
  ledger: Ledger,
  options: { json?: boolean },
  command: Command,
  interrupt: Interrupt,
): Promise<number> {
  const surfaces = runSurfacesOf(command, ledger.path);
  // Observed like `tally fish`: progress on a terminal, --events, OTel spans when enabled.
  const result = await observeRuns(surfaces, () =>
    prepareData({
      request: DEMO_REQUEST,
      captures: [DEMO_HAR],
      scope: DEMO_SCOPE,
      baseUrl: url,
      login: DEMO_LOGIN,
      loginName: 'demo',
      ledger,
      signal: interrupt.signal,
      graceMs: interrupt.graceMs,
    }),
  );
  if (interrupt.received()) {
    await requireRecorded(ledger, [result.runId]);
    process.stdout.write(
      options.json
        ? `${JSON.stringify({ demoApp: url, ledger: ledger.path, result }, null, 2)}\n`
        : `${formatFishResult(result)}\n`,
    );
    return EXIT.notMet;
  }
  // The read-back is a run of its own after the fish run ended (its verdict stands alone): a
  // lookup per verified item, in this ledger. If it fails, the fish run's result still prints.
  let readBack: ReadBackResult | undefined;
  let warning: string | undefined;
  try {
    readBack = await observeRuns(surfaces, () =>
      readBackRun({
        runId: result.runId,
        items: result.verified,
        captures: [DEMO_HAR],
        baseUrl: url,
        login: DEMO_LOGIN,
        ledger,
        // Ctrl-C during the read-back ends it aborted, as during the fish run.
        signal: interrupt.signal,
        graceMs: interrupt.graceMs,
      }),
    );
  } catch (error) {
    warning = afterRunWarning(
      surfaces.failOpenLog,
      result.runId,
      `the read-back through the API failed: ${errorMessage(error)}`,
      'readback-failed',
    );
  }
  // The ledger has both runs, or neither outcome is presented (the ledger is the truth).
  await requireRecorded(ledger, readBack ? [result.runId, readBack.runId] : [result.runId]);
  const confirmations = (readBack?.readBacks ?? []).map((item) => ({
    type: item.type,
    id: item.id,
    title: item.title,
    via: item.via,
    readStatus: item.status,
    confirmed: item.confirmed,
  }));
  const allConfirmed =
    !interrupt.received() &&
    result.status === 'success' &&
    confirmations.length === 8 &&
    confirmations.every((item) => item.confirmed);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ demoApp: url, ledger: ledger.path, result, confirmations, ...(readBack ? { readBackRunId: readBack.runId } : {}), allConfirmed, ...(warning ? { warnings: [warning] } : {}) }, null, 2)}\n`,
    );
  } else {
    const rows = confirmations.map((item) => [
      item.type,
      item.id,
      truncate(item.title, 28),
      item.via,
      item.confirmed
        ? pc.green(`✓ GET ${item.readStatus}`)
        : pc.red(`✗ GET ${item.readStatus ?? 'no answer'}`),
    ]);
    process.stdout.write(
      `${[
        `Demo app on ${url} · captures ${DEMO_HAR.split('/').slice(-3).join('/')} · scope ${DEMO_SCOPE}`,
        `Request: "${DEMO_REQUEST}" (${result.tier} tier, no model)`,
        '',
        formatTable(['TYPE', 'ID', 'TITLE', 'VIA', 'READ BACK'], rows),
        '',
        `${allConfirmed ? pc.green('All 8 items verified in the ledger and confirmed through the API.') : pc.red('Not every item was verified and confirmed.')} Ending: ${result.endingReason}.`,
        `Run ${result.runId} · ledger ${ledger.path}`,
        `See it: tally runs show ${result.runId}`,
        ...(readBack
          ? [
              `Read back in run ${readBack.runId}${interrupt.received() ? ` (interrupted: ended ${readBack.endingReason})` : ''}: tally runs show ${readBack.runId}`,
            ]
          : []),
      ].join('\n')}\n`,
    );
    if (warning) process.stderr.write(`tally: warning: ${warning}\n`);
  }
  return allConfirmed ? EXIT.ok : EXIT.notMet;
}
