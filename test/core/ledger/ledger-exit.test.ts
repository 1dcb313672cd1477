// A process that leaves without closing its ledger loses nothing it queued: SQLite writes on
// the `exit` event; PostgreSQL commits on `beforeExit` (a return) or before the CLI's hard exit.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { useLedgerBackends } from '../../support/ledger-backends.js';

const child = join(import.meta.dirname, 'exit-child.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const backends = useLedgerBackends();

function runChild(target: string, how: string, count: number) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, child, target, how, String(count)],
      { cwd: tempDir(), timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe.each(backends)('leaving without close() on $name', (backend) => {
  const test = backend.skip ? it.skip : it;

  test.each([
    ['returning from the program', 'return', 0],
    ['the second signal’s hard exit (process.exit)', 'hard-exit', 130],
  ])(
    '%s keeps every queued entry',
    async (_, how, exitCode) => {
      const target = backend.target();
      const result = await runChild(target, how as string, 500);
      expect(result.code, result.stderr).toBe(exitCode);
      expect(result.stderr).not.toMatch(/not committed|could not be written/);
      const runId = result.stdout.trim().split('\n')[0] as string;
      const ledger = await backend.open(target);
      try {
        const { entries } = await ledger.getRun(runId);
        expect(entries.map((entry) => entry.data.index)).toEqual([...Array(500).keys()]);
      } finally {
        await ledger.close();
      }
    },
    90_000,
  );
});
