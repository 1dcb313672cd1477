import type { RunObserver } from '../../../core/agent/run-observer.js';

/**
 * `--events`: each run event as one JSON line on `stream` (stderr from the CLI, so stdout
 * keeps the one `--json` document). Entries are redacted as the ledger stores them.
 */
export function eventsWriter(stream: NodeJS.WritableStream): RunObserver {
  return (event) => {
    stream.write(`${JSON.stringify(event)}\n`);
  };
}
