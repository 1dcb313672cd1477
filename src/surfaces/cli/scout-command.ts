import { join } from 'node:path';
import type { Command } from 'commander';
import { runDeterministicScout } from '../../agents/scout/deterministic-scout.js';
import { errorMessage, TallyError } from '../../core/errors.js';
import { createFailOpen } from '../../core/fail-open.js';
import { secureStateDir } from '../../core/io/private-dir.js';
import { digestSettings } from '../../packs/records/digests/digest-settings.js';
import { digestDir, readDigests, writeDigest } from '../../packs/records/digests/digest-store.js';
import { openRecordSource } from '../../packs/records/open-record-source.js';
import { listStores, resolveRecordsRoot } from '../../packs/records/stores.js';
import { requireRecorded, usingLedger } from '../require-recorded.js';
import { visibleControls } from '../visible-controls.js';
import { EXIT } from './exit-codes.js';
import { withInterrupt } from './interrupt.js';
import { openLedgerFor } from './open-ledger.js';
import { observeRuns, runSurfacesOf } from './progress/observe-runs.js';

/**
 * The scout writes a digest by contract: it makes `<root>/.tally` (one level, no links),
 * which the records index no longer does now that it lives in the cache folder. After the
 * run, so a digest that cannot be written is a `store-unwritable` fail-open and a warning.
 */
function saveDigest(
  root: string,
  session: string | undefined,
  text: string,
  ttlDays: number,
): string | undefined {
  const failOpen = () =>
    createFailOpen({ logPath: join(root, '.tally', 'fail-open.jsonl') })(
      'scout',
      'store-unwritable',
      session,
    );
  try {
    if (!process.env.TALLY_DIGEST_DIR) secureStateDir(join(root, '.tally'), { create: true });
    const outcome = writeDigest(digestDir(root), session, text, { ttlDays });
    if ('refused' in outcome && outcome.refused === 'store-unwritable') failOpen();
    return undefined;
  } catch (error) {
    failOpen();
    return `the digest was not written: ${errorMessage(error)}`;
  }
}

/**
 * An option left unset: empty, or a plugin placeholder Claude Code did not substitute (it
 * leaves `${user_config.scout_model}` as is when the user never set the option). Either way
 * the documented default applies — never the placeholder as a value.
 */
function given(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '' || /^\$\{[^}]*\}$/.test(value.trim())) return undefined;
  return value;
}

/** `tally scout "<goal>"`: the records that govern a goal, verified, written as a digest. */
export default async function scoutCommand(
  goal: string,
  flags: { root?: string; session?: string; json?: boolean; model?: string },
  command: Command,
): Promise<number> {
  const root = resolveRecordsRoot(given(flags.root));
  const session = given(flags.session) ?? given(process.env.TALLY_SESSION_ID);
  const model = given(flags.model);
  const settings = digestSettings();
  for (const warning of settings.warnings) process.stderr.write(`tally: ${warning}\n`);
  const stores = listStores(root);
  // Nothing to search: say so before anything is written (no ledger, no .tally/ in that folder).
  if (!stores.some((store) => store.exists))
    throw new TallyError(
      'NO_RECORD_STORES',
      `No record stores under ${root}, so there is nothing to scout (a store is a folder of markdown records, such as references/decisions). Pass --root with your records folder or set TALLY_RECORDS_ROOT.`,
      { root },
    );
  const prior = readDigests(digestDir(root), session, settings);
  const ledger = await openLedgerFor(command, root);
  const source = openRecordSource(root, stores);
  return await usingLedger(ledger, async () => {
    try {
      return await withInterrupt(async (interrupt) => {
        const scoutOptions = {
          goal,
          root,
          source,
          ledger,
          priorDigests: prior.digests.map((digest) => digest.text),
          cwd: process.cwd(),
          // The session is what the how-do-i gate looks the run up by.
          meta: session ? { session } : {},
          signal: interrupt.signal,
          graceMs: interrupt.graceMs,
        };
        // With --model the model tier runs (its report never has fewer GOVERNS than the tier without one).
        const report = await observeRuns(runSurfacesOf(command, ledger.path), async () =>
          model
            ? (await import('../../agents/scout/model-scout.js')).runModelScout({
                ...scoutOptions,
                model,
              })
            : runDeterministicScout(scoutOptions),
        );
        // The ledger has the run, or its report is not presented (the ledger is the truth).
        await requireRecorded(ledger, [report.result.runId]);
        // An interrupted scout's report is not a digest for the next turn to start from.
        const warning = interrupt.received()
          ? undefined
          : saveDigest(root, session, report.text, settings.ttlDays);
        if (flags.json)
          process.stdout.write(
            `${JSON.stringify({ ...report.result, report: report.text, ...(warning ? { warnings: [warning] } : {}) }, null, 2)}\n`,
          );
        else {
          const { result } = report;
          // The report is the model's (or the records') words: shown, never obeyed by the terminal.
          process.stdout.write(
            visibleControls(
              `${prior.digests.length > 0 ? `(warm start: ${prior.total} digest(s) this session)\n\n` : ''}${report.text}\nrun ${result.runId} · ${result.status} · ${result.endingReason}\n${
                result.status === 'success'
                  ? ''
                  : `summary: ${result.summary}\n${result.unmet.map((why) => `  unmet: ${why}\n`).join('')}`
              }`,
            ),
          );
          if (warning) process.stderr.write(`tally: warning: ${warning}\n`);
        }
        // As every agent command: 0 only when what was asked was met (README's exit codes).
        return report.result.status === 'success' ? EXIT.ok : EXIT.notMet;
      });
    } finally {
      source.close();
    }
  });
}
