import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Ledger } from '../src/core/ledger/ledger.js';

const cleanups: (() => void)[] = [];

afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A fresh temp directory, removed after the test. */
export function tempDir(prefix = 'tally-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real ledger file in a fresh temp directory. */
export function tempLedger(): Ledger {
  const ledger = Ledger.open(join(tempDir(), '.tally', 'ledger.db'));
  cleanups.unshift(() => ledger.close());
  return ledger;
}
