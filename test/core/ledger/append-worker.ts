// Child process for the multi-process ledger tests: appends N entries to one shared run, on
// whichever backend the target names (a SQLite file or a postgres:// URL).
import { openLedger } from '../../../src/core/ledger/ledger.js';

const [path, runId, count, label] = process.argv.slice(2) as [string, string, string, string];
const ledger = await openLedger(path);
const recorder = ledger.recorderFor(runId);
for (let index = 0; index < Number(count); index++) {
  recorder.append({ kind: 'tool_call', name: 'append', outcome: 'ok', data: { label, index } });
  // Yield now and then, as an agent loop does between tool calls: group commits interleave.
  if (index % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
}
await ledger.close();
