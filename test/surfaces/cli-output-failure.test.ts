// What the real CLI does when its stdout fails under it: a full disk (`>/dev/full`, ENOSPC) or a
// reader that stops early (`| head -1`, EPIPE) must never crash it with an unhandled stream
// 'error' and a stack trace. A full disk is said in one line and fails the command (exit 1); a
// reader that went away is the shell's ordinary end of output.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/surfaces/cli/exit-codes.js';
import { TALLY_BIN, tempDir } from '../helpers.js';

function tally(args: string[], stdout: number | 'pipe', cwd = tempDir()) {
  return spawn(process.execPath, [TALLY_BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', TALLY_LEDGER: '', XDG_STATE_HOME: tempDir() },
    stdio: ['ignore', stdout, 'pipe'],
    // A hang is a failure, not a stuck test run.
    timeout: 10_000,
  });
}

function finished(child: ReturnType<typeof tally>): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe.skipIf(!existsSync('/dev/full'))('stdout on a full device (/dev/full)', () => {
  // The full CLI and the bundled read commands each write their own way (a stream, descriptor 1).
  it.each([['--version'], ['runs'], ['doctor']])(
    'tally %s says so in one line and exits 1',
    async (...args) => {
      const full = openSync('/dev/full', 'w');
      try {
        const { code, stderr } = await finished(tally(args, full));
        expect(stderr).not.toMatch(/Unhandled 'error'|at writeSync|node:events/);
        expect(stderr).toMatch(/could not write the output to stdout \(ENOSPC\)/);
        expect(code).toBe(EXIT.notMet);
      } finally {
        closeSync(full);
      }
    },
    30_000,
  );
});

describe.skipIf(process.platform === 'win32')('a ledger path that is a FIFO', () => {
  // Reading it would wait for a writer forever: the read commands refuse it at once instead.
  it.each([['runs'], ['ledger', 'check']])(
    'tally %s exits 3 at once, not hanging',
    async (...args) => {
      const fifo = join(tempDir(), 'ledger.db');
      execFileSync('mkfifo', [fifo]);
      const { code, stderr } = await finished(tally([...args, '--ledger', fifo], 'pipe'));
      expect(stderr).toMatch(/it is a FIFO \(named pipe\)/);
      expect(code).toBe(EXIT.unavailable);
    },
    15_000,
  );
});
