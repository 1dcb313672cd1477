// `tally fish` raises V8's tier-up thresholds (bin/v8-tier-flags.js, issue 22). What a user would
// notice if it broke: "unrecognized flag" printed by every command on a Node whose V8 lacks the
// flag chosen.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const FLAGS = join(import.meta.dirname, '..', '..', 'bin', 'v8-tier-flags.js');
const { tierUpFlags } = createRequire(import.meta.url)(FLAGS) as {
  tierUpFlags: (v8Version?: string) => string[];
};

describe('V8 tier-up flags', () => {
  it('are chosen by what the V8 has, and none on a V8 where they lost or were not measured', () => {
    // Node 20's V8: its interrupt budget, raised, made short runs slower (measured): none.
    expect(tierUpFlags('11.3.244.8-node.33')).toEqual([]);
    const counts = ['--invocation-count-for-turbofan=24000', '--invocation-count-for-maglev=3200'];
    expect(tierUpFlags('12.4.254.21-node.33')).toEqual(counts);
    expect(tierUpFlags('13.6.233.17-node.29')).toEqual(counts);
    expect(tierUpFlags('14.2.1')).toEqual([]);
  });

  it('are ones this Node’s V8 knows, and setting them prints nothing', async () => {
    const { stdout: options } = await exec(process.execPath, ['--v8-options'], { maxBuffer: 1 << 24 });
    for (const flag of tierUpFlags()) expect(options).toContain(`  ${flag.split('=')[0]} (`);
    const run = await exec(process.execPath, [
      '-e',
      `process.stdout.write(require(${JSON.stringify(FLAGS)}).raiseTierUpThresholds(['node:http']))`,
    ]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(tierUpFlags().join(' '));
  });
});
