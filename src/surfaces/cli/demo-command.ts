import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import pc from 'picocolors';
import { type PrepareDataResult, prepareData } from '../../agents/fisherman/prepare-data.js';
import { errorMessage } from '../../core/errors.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { startDemoApp } from '../../demo-app/server.js';
import { ApiClient } from '../../packs/http/client/api-client.js';
import { DEMO_LOGIN, logIn } from '../../packs/http/client/login-recipe.js';
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

interface Confirmation {
  type: string;
  id: string;
  title: string;
  via: string;
  readStatus: number;
  confirmed: boolean;
}

/** Reads every verified item back through the app's own API, in a separate session. */
async function confirmThroughApi(baseUrl: string, result: PrepareDataResult): Promise<Confirmation[]> {
  const client = new ApiClient({ baseUrl, session: await logIn(baseUrl, DEMO_LOGIN) });
  const out: Confirmation[] = [];
  for (const item of result.verified) {
    // The resource URL the run created, as the ledger's effects name it.
    const path = String(item.resource);
    const response = await client.send({ method: 'GET', path });
    const data = (response.body as { data?: { id?: unknown; title?: unknown } } | undefined)?.data;
    out.push({
      type: String(item.type),
      id: item.target,
      title: String(data?.title ?? ''),
      via: item.via,
      readStatus: response.status,
      confirmed: response.status === 200 && String(data?.id) === item.target && data?.title === item.title,
    });
  }
  return out;
}

/**
 * The main job on embedded defaults: start the demo app, import the bundled HAR (recorded
 * against another port), log in now, prepare "2 suites with 3 tests each" in one project,
 * and prove through the app's own API that every item exists.
 */
export default async function demoCommand(options: { json?: boolean }, command: Command): Promise<number> {
  const app = await startDemoApp();
  const ledger = await openLedgerFor(command);
  try {
    return await withInterrupt((interrupt) => runDemo(app.url, ledger, options, command, interrupt));
  } finally {
    await ledger.close();
    await app.close();
  }
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
    process.stdout.write(
      options.json
        ? `${JSON.stringify({ demoApp: url, ledger: ledger.path, result }, null, 2)}\n`
        : `${formatFishResult(result)}\n`,
    );
    return EXIT.notMet;
  }
  // The read-back comes after the run ended: if it fails, the run's result is still printed.
  let confirmations: Confirmation[] = [];
  let warning: string | undefined;
  try {
    confirmations = await confirmThroughApi(url, result);
  } catch (error) {
    warning = afterRunWarning(
      surfaces.failOpenLog,
      result.runId,
      `the read-back through the API failed: ${errorMessage(error)}`,
      'readback-failed',
    );
  }
  const allConfirmed =
    result.status === 'success' &&
    confirmations.length === 8 &&
    confirmations.every((item) => item.confirmed);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ demoApp: url, ledger: ledger.path, result, confirmations, allConfirmed, ...(warning ? { warnings: [warning] } : {}) }, null, 2)}\n`,
    );
  } else {
    const rows = confirmations.map((item) => [
      item.type,
      item.id,
      truncate(item.title, 28),
      item.via,
      item.confirmed ? pc.green(`✓ GET ${item.readStatus}`) : pc.red(`✗ GET ${item.readStatus}`),
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
      ].join('\n')}\n`,
    );
    if (warning) process.stderr.write(`tally: warning: ${warning}\n`);
  }
  return allConfirmed ? EXIT.ok : EXIT.notMet;
}
