// Child process for the multi-process ledger test: appends N entries to one shared run.
import { Ledger } from '../../../src/core/ledger/ledger.js';

const [path, runId, count, label] = process.argv.slice(2) as [string, string, string, string];
const ledger = Ledger.open(path);
const recorder = ledger.recorderFor(runId);
for (let index = 0; index < Number(count); index++) {
  recorder.append({ kind: 'tool_call', name: 'append', outcome: 'ok', data: { label, index } });
}
ledger.close();
