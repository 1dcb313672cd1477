import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupLockPath } from '../../src/surfaces/cli/cleanup-lock.js';
import { tempDir } from '../helpers.js';

const MODULE = join(import.meta.dirname, '..', '..', 'src', 'surfaces', 'cli', 'cleanup-lock.ts');

/**
 * A process that takes the lock and holds it until `releaseFile` exists, or is refused; prints
 * `won` or the refusal. Each waits for `goFile` so that all of them race at the same moment.
 */
const CONTENDER = `
const { existsSync } = await import('node:fs');
const { holdCleanupLock } = await import(${JSON.stringify(MODULE)});
const [ledger, goFile, releaseFile] = process.argv.slice(1);
while (!existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 1));
try {
  const release = holdCleanupLock(ledger, 'run_race');
  process.stdout.write('won');
  while (!existsSync(releaseFile)) await new Promise((resolve) => setTimeout(resolve, 5));
  release();
} catch (error) {
  process.stdout.write(error.code + ' ' + error.message);
}
`;

function contender(ledger: string, goFile: string, releaseFile: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', CONTENDER, ledger, goFile, releaseFile],
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

/**
 * Starts `count` contenders, lets them race, and releases the winner only once every other
 * has answered: however slow a machine, no contender comes after the winner let go.
 */
async function race(ledger: string, count: number, holders = 1): Promise<string[]> {
  const dir = tempDir();
  const goFile = join(dir, 'go');
  const releaseFile = join(dir, 'release');
  const answered: string[] = [];
  const outputs = Array.from({ length: count }, () =>
    contender(ledger, goFile, releaseFile).then((output) => {
      answered.push(output);
      return output;
    }),
  );
  // Let every process start and wait on the go file, then release them together.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  writeFileSync(goFile, '');
  // Bounded: with two winners (the bug) the losers never number count - 1; the assertions say so.
  const until = Date.now() + 10_000;
  while (answered.length < count - holders && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 20));
  writeFileSync(releaseFile, '');
  return Promise.all(outputs);
}

describe('the cleanup lock between processes (tally fish cleanup)', () => {
  it('processes racing for one lock: exactly one wins, every other is refused naming the winner', async () => {
    const ledger = join(tempDir(), '.tally', 'ledger.db');
    const outputs = await race(ledger, 4);
    expect(outputs.filter((output) => output === 'won')).toHaveLength(1);
    // The holder is in the lock from the moment it exists: never a refusal without a name.
    for (const output of outputs.filter((output) => output !== 'won'))
      expect(output).toMatch(
        new RegExp(
          `^CLEANUP_RUNNING Another cleanup of run_race is running \\(process \\d+ on ${hostname()}, since `,
        ),
      );
    // Released by its holder, and no temporary file of the protocol left beside it.
    expect(readdirSync(join(ledger, '..'))).toEqual([]);
  }, 20_000);

  it('processes racing to take over an abandoned lock: exactly one wins', async () => {
    const ledger = join(tempDir(), '.tally', 'ledger.db');
    const lock = cleanupLockPath(ledger, 'run_race');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const abandoned = JSON.stringify({
      pid: Number(gone.stdout),
      host: hostname(),
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(ledger, '..'), { recursive: true });
    writeFileSync(lock, abandoned);
    const outputs = await race(ledger, 4);
    expect(outputs.filter((output) => output === 'won')).toHaveLength(1);
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(join(ledger, '..'))).toEqual([]);
  }, 20_000);

  it('a lock held by this live process is not taken over, and its file is left as it was', async () => {
    const ledger = join(tempDir(), '.tally', 'ledger.db');
    const lock = cleanupLockPath(ledger, 'run_race');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(ledger, '..'), { recursive: true });
    const held = JSON.stringify({
      pid: process.pid,
      host: hostname(),
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    writeFileSync(lock, held);
    const outputs = await race(ledger, 2, 0);
    expect(
      outputs.every((output) =>
        output.startsWith(`CLEANUP_RUNNING Another cleanup of run_race is running (process ${process.pid}`),
      ),
    ).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(held);
  }, 20_000);
});
