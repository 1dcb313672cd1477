import type { RunObserver } from '../../../core/agent/run-observer.js';

/**
 * `--events`: each run event as one JSON line on `stream` (stderr from the CLI, so stdout
 * keeps the one `--json` document). Entries are redacted as the ledger stores them.
 *
 * `model-text-delta` is left out: the same text comes whole, and redacted as a whole, in
 * `model-text` the moment its response ends; pieces would add a line per few words to a
 * stream that is kept in files and CI logs, and a piece is redacted only as far as a piece
 * can be (see `recordingModel`). A program that wants the text live observes the run
 * itself (`onEvent` or `withRunObserver`), where the pieces are told.
 */
export function eventsWriter(stream: NodeJS.WritableStream): RunObserver {
  return (event) => {
    if (event.type === 'model-text-delta') return;
    stream.write(`${JSON.stringify(event)}\n`);
  };
}
