import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { tempDir } from '../../helpers.js';

const MODULE = join(import.meta.dirname, '..', '..', '..', 'src', 'core', 'ledger', 'ledger.ts');

/**
 * Opens the ledger, records a run, closes it — `rounds` times, as many `tally` commands started
 * together do (each open switches the file to WAL; the last to close switches it back). Prints
 * every failure's code; starts when `goFile` exists, so all processes open at the same moment.
 */
const OPENER = `
const { existsSync } = await import('node:fs');
const { Ledger } = await import(${JSON.stringify(MODULE)});
const [path, goFile, rounds] = process.argv.slice(1);
while (!existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 1));
const failures = [];
for (let round = 0; round < Number(rounds); round++) {
  for (const readonly of [true, false]) {
    try {
      const ledger = Ledger.open(path, readonly ? { readonly: true } : {});
      if (!readonly) ledger.startRun({ agent: 'opener', task: 'round ' + round }).append({ kind: 'tool_call', name: 'probe', outcome: 'ok', data: { input: { round } } });
      ledger.close();
    } catch (error) {
      failures.push(error.code + ': ' + error.message);
    }
  }
}
process.stdout.write(JSON.stringify(failures));
`;

function opener(path: string, goFile: string, rounds: number): Promise<string[]> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', OPENER, path, goFile, String(rounds)],
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr)) : resolve(JSON.parse(stdout) as string[]),
    ),
  );
}

describe('many processes opening one SQLite ledger at once', () => {
  it('every open succeeds: a busy answer SQLite gives without waiting (deadlock avoidance) is retried', async () => {
    const dir = tempDir();
    const path = join(dir, '.tally', 'ledger.db');
    Ledger.open(path).close();
    const goFile = join(dir, 'go');
    const processes = Array.from({ length: 4 }, () => opener(path, goFile, 60));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    writeFileSync(goFile, '');
    const failures = (await Promise.all(processes)).flat();
    expect(failures).toEqual([]);
    const ledger = Ledger.open(path, { readonly: true });
    try {
      expect(ledger.listRuns({ limit: 1000 }).length).toBe(240);
    } finally {
      ledger.close();
    }
  }, 60_000);
});
