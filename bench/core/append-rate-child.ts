// One sample for the SQLite driver bench: appends to a fresh ledger with the Node that runs
// it (and so the driver that Node gets), then prints one JSON line.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { openSqlite, sqliteDriver } from '../../src/core/sqlite/open-sqlite.js';

const appends = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'tally-bench-driver-'));
try {
  const path = join(dir, 'ledger.db');
  const ledger = Ledger.open(path);
  const recorder = ledger.startRun({ agent: 'bench', task: 'appends' });
  const entry = (index: number) => ({
    kind: 'tool_call' as const,
    name: 'bench',
    outcome: 'ok',
    data: { index, input: { path: `src/file-${index}.ts` } },
  });
  for (let index = 0; index < 500; index++) recorder.append(entry(index)); // warm-up
  ledger.flush();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < appends; index++) {
    recorder.append(entry(index));
    // Committed writes, not queueing: a commit every 10 appends (a busy agent step's worth).
    if (index % 10 === 9) ledger.flush();
  }
  ledger.flush();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  ledger.close();
  // Parity: what is on disk, read back through the same seam (timestamps aside).
  const reader = openSqlite(path, { readonly: true });
  const hash = createHash('sha256');
  let count = 0;
  for (const row of reader
    .prepare('SELECT seq, kind, name, outcome, data FROM entries ORDER BY seq')
    .raw()
    .iterate()) {
    hash.update(JSON.stringify(row));
    count++;
  }
  reader.close();
  process.stdout.write(
    `${JSON.stringify({
      node: process.version,
      driver: sqliteDriver(),
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      count,
      digest: hash.digest('hex'),
    })}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
