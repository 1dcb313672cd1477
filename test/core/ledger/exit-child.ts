// Child process for the exit tests: queues entries on the ledger the target names, then leaves
// without `close()` — by returning (`return`), or through the CLI's second-signal hard exit
// (`hard-exit`, which calls process.exit), or by returning after a line on stdin says the
// server is away (`return-in-outage`). Prints the run id first.
import { openLedger } from '../../../src/core/ledger/ledger.js';
import { withInterrupt } from '../../../src/surfaces/cli/interrupt.js';

const [target, how, count] = process.argv.slice(2) as [
  string,
  'return' | 'hard-exit' | 'return-in-outage',
  string,
];
const ledger = await openLedger(target);

const recorder = ledger.startRun({ agent: 'exit', task: how });
process.stdout.write(`${recorder.runId}\n`);
let next = 0;
function queue(n: number): void {
  for (const end = next + n; next < end; next++)
    recorder.append({ kind: 'tool_call', name: 'append', outcome: 'ok', data: { index: next } });
}

if (how === 'return-in-outage') {
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.destroy();
  // The write fails; its retry waits on a timer that does not keep the process alive.
  queue(Number(count));
} else if (how === 'return') {
  // Half in flight, half queued behind it on the group-commit timer, which does not keep the
  // process alive: the program ends with entries still queued.
  queue(Number(count) / 2);
  await new Promise((resolve) => setTimeout(resolve, 1));
  queue(Number(count) / 2);
} else
  await withInterrupt(async () => {
    const hold = setInterval(() => undefined, 1000);
    // All in one turn: nothing is committed yet when the second signal comes.
    queue(Number(count));
    // The two signals delivered in this same turn, so the queue is still uncommitted when the
    // second one's handler runs (a real second Ctrl-C can land at any moment, this one included).
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGTERM', 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    clearInterval(hold);
    return 0;
  });
