// One append sample for the PostgreSQL-vs-SQLite bench: appends to a fresh run of the ledger the
// target names (a file or a postgres:// URL), committing every 10 appends as an agent's busy
// step does, then prints one JSON line: the time, and a digest of what the store holds for it.
import { createHash } from 'node:crypto';
import { openLedger } from '../../src/core/ledger/ledger.js';

const [target, count] = process.argv.slice(2) as [string, string];
const appends = Number(count);
const ledger = await openLedger(target);
const entry = (index: number) => ({
  kind: 'tool_call' as const,
  name: 'bench',
  outcome: 'ok',
  data: { index, input: { path: `src/file-${index}.ts` } },
});
const warm = ledger.startRun({ agent: 'bench', task: 'warm-up' });
for (let index = 0; index < 500; index++) warm.append(entry(index));
await ledger.commit();
const recorder = ledger.startRun({ agent: 'bench', task: 'appends' });
const started = performance.now();
for (let index = 0; index < appends; index++) {
  recorder.append(entry(index));
  // Committed writes, not queueing: a commit every 10 appends (a busy agent step's worth).
  if (index % 10 === 9) await ledger.commit();
}
await ledger.commit();
const wallMs = performance.now() - started;
// Parity: the entries as the store gives them back (times aside), on either backend.
const { entries } = await ledger.getRun(recorder.runId);
const hash = createHash('sha256');
for (const stored of entries)
  hash.update(JSON.stringify([stored.seq, stored.kind, stored.name, stored.outcome, stored.data]));
await ledger.close();
process.stdout.write(`${JSON.stringify({ wallMs, count: entries.length, digest: hash.digest('hex') })}\n`);
