import { join } from 'node:path';
import type { Command } from 'commander';
import { combineObservers, type RunObserver, withRunObserver } from '../../../core/agent/run-observer.js';
import { createFailOpen } from '../../../core/fail-open.js';
import { ledgerStateDir } from '../../../core/ledger/resolve-ledger-path.js';
import { telemetryEnabled } from '../../telemetry/telemetry-enabled.js';
import { eventsWriter } from './events-writer.js';
import { compactCounter } from './job-counter.js';

export interface RunSurfaces {
  /** The command prints one JSON document: no progress (events only on request). */
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  /** NDJSON run events on stderr. */
  events: boolean;
  /** Where a failed trace export is logged. */
  failOpenLog: string;
}

/** The progress, events and telemetry settings of a command that runs agents. */
export function runSurfacesOf(command: Command, ledgerPath: string): RunSurfaces {
  const flags = command.optsWithGlobals() as Record<string, unknown>;
  return {
    json: Boolean(flags.json),
    quiet: Boolean(flags.quiet),
    verbose: Boolean(flags.verbose),
    events: Boolean(flags.events),
    failOpenLog: process.env.TALLY_FAIL_OPEN_LOG || join(ledgerStateDir(ledgerPath), 'fail-open.jsonl'),
  };
}

/**
 * Whether the model's text is already on this terminal, streamed by the progress display:
 * then a command's own copy of each step's text on the same terminal would only repeat it.
 */
export function textShownByProgress(surfaces: RunSurfaces): boolean {
  return wantsProgress(surfaces, process.stderr) && process.stdout.isTTY === true;
}

/** Progress only on a terminal, never under --json or --quiet. */
function wantsProgress(surfaces: RunSurfaces, stream: NodeJS.WriteStream): boolean {
  return !surfaces.json && !surfaces.quiet && stream.isTTY === true && process.env.TERM !== 'dumb';
}

/**
 * Runs `work` with every run it starts shown as it happens: live progress on a terminal,
 * `--events` NDJSON, and OTel spans when the OTEL_* variables enable export. With none of
 * them, `work` runs bare (no observer, no SDK loaded). Spans are flushed before returning.
 */
export function observeRuns<T>(surfaces: RunSurfaces, work: () => Promise<T>): Promise<T> {
  return observeRunsWith(surfaces, (observer) => (observer ? withRunObserver(observer, work) : work()));
}

/**
 * `observeRuns` for work that hands the observer to the runs it starts itself (`onEvent`)
 * instead of scoping it: no AsyncLocalStorage, whose async hooks would cost every promise of
 * the run on Node < 24 (issue 22). `observer` is undefined when nothing watches.
 */
export async function observeRunsWith<T>(
  surfaces: RunSurfaces,
  work: (observer: RunObserver | undefined) => Promise<T>,
): Promise<T> {
  const stream = process.stderr;
  const observers: RunObserver[] = [];
  const progress = wantsProgress(surfaces, stream)
    ? await (await import('./progress-renderer.js')).createProgressRenderer({
        stream,
        verbose: surfaces.verbose,
      })
    : undefined;
  // Progress first: it ends a streamed text's line before an --events line lands on the same stderr.
  if (progress) observers.push(progress.observer);
  if (surfaces.events) observers.push(eventsWriter(stream));
  // Not a terminal (a CI log, a pipe): no live display, but a long job still says how far it is,
  // in a few compact lines (never among --events' NDJSON, never under --json or --quiet).
  else if (!progress && !surfaces.json && !surfaces.quiet) observers.push(compactCounter(stream));
  const telemetry = telemetryEnabled()
    ? await (await import('../../telemetry/start-telemetry.js')).startTelemetry({
        failOpen: createFailOpen({ logPath: surfaces.failOpenLog }),
      })
    : undefined;
  if (telemetry) observers.push(telemetry.observer);
  if (observers.length === 0) return work(undefined);
  try {
    return await work(combineObservers(...observers));
  } finally {
    // The runs have ended: a display or an exporter that fails now must not take their results.
    try {
      progress?.stop();
    } catch {
      // A progress line that cannot be cleared changes nothing that was done.
    }
    try {
      await telemetry?.shutdown();
    } catch {
      createFailOpen({ logPath: surfaces.failOpenLog })('telemetry', 'telemetry-unavailable');
    }
  }
}
