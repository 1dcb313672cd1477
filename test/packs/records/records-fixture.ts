import { execFile } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../../helpers.js';

const exec = promisify(execFile);
export const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'records');
const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'tally.js');

/** A private copy of the committed corpus (queries write an index next to it). */
export function corpus(): string {
  const root = join(tempDir('tally-records-'), 'corpus');
  cpSync(FIXTURE, root, { recursive: true, filter: (source) => !source.includes('/.tally') });
  return root;
}

export async function tally(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
) {
  try {
    const child = exec(process.execPath, [bin, ...args], {
      cwd: options.cwd ?? tempDir(),
      env: {
        ...process.env,
        NO_COLOR: '1',
        TALLY_RECORDS_ROOT: '',
        TALLY_RECORDS_STORES: '',
        TALLY_LEDGER: '',
        ...options.env,
      },
    });
    if (options.input !== undefined) {
      child.child.stdin?.end(options.input);
    }
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}
