// Two machines cleaning the same run of one PostgreSQL ledger: the cleanup lock is in the
// database (an advisory lock keyed by run id), not in each machine's temp folder, so exactly
// one of them cleans. The "machines" are processes with their own TMPDIR.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { describePostgres } from '../support/describe-postgres.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Takes the run's cleanup lock and holds it until `releaseFile` exists; prints `won` or the refusal. */
const CONTENDER = `
const { existsSync } = await import('node:fs');
const { openLedger } = await import(${JSON.stringify(join(SRC, 'core', 'ledger', 'ledger.ts'))});
const { holdRunCleanupLock } = await import(${JSON.stringify(join(SRC, 'surfaces', 'cli', 'cleanup-lock.ts'))});
const [url, releaseFile] = process.argv.slice(1);
const ledger = await openLedger(url);
try {
  const release = await holdRunCleanupLock(ledger, 'run_shared');
  process.stdout.write('won\\n');
  while (!existsSync(releaseFile)) await new Promise((resolve) => setTimeout(resolve, 5));
  await release();
} catch (error) {
  process.stdout.write(error.code + ' ' + error.message + '\\n');
} finally {
  await ledger.close();
}
`;

function machine(url: string, releaseFile: string): { said: Promise<string>; done: Promise<string> } {
  let said: (line: string) => void = () => undefined;
  const first = new Promise<string>((resolve) => {
    said = resolve;
  });
  const done = new Promise<string>((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', CONTENDER, url, releaseFile],
      { env: { ...process.env, TMPDIR: tempDir('machine-') } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) said(out.trim());
    });
  });
  return { said: first, done };
}

describePostgres('fish cleanup of one run of a PostgreSQL ledger from two machines', (server) => {
  it('one cleans; the other is refused CLEANUP_RUNNING, naming the ledger; then the lock is free again', async () => {
    const url = server.createDatabase('cleanup_lock');
    const dir = tempDir();
    const releaseA = join(dir, 'release-a');
    const a = machine(url, releaseA);
    expect(await a.said).toBe('won');
    const b = machine(url, join(dir, 'release-b-now'));
    writeFileSync(join(dir, 'release-b-now'), '');
    const refused = await b.done;
    expect(refused).toMatch(/^CLEANUP_RUNNING Another cleanup of run_shared is running/);
    expect(refused).toContain('postgres://postgres@127.0.0.1');
    writeFileSync(releaseA, '');
    await a.done;
    const c = machine(url, join(dir, 'release-b-now'));
    expect(await c.done).toBe('won\n');
  }, 90_000);
});
