import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

const HOLDER = join(import.meta.dirname, 'fixtures', 'hold-ledger-lock.ts');

/** A real second process holding `BEGIN EXCLUSIVE` on the ledger file for `holdMs`. */
export async function holdLock(
  path: string,
  holdMs: number,
): Promise<{ child: ChildProcess; released: Promise<void> }> {
  const child = fork(HOLDER, [path, String(holdMs)], { execArgv: ['--import', 'tsx'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('error', reject);
  });
  const released = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, released };
}
