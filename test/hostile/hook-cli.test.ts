import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/core/make-dirs.js';
import { runTally, tempDir } from '../helpers.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'hooks');

describe('a hook never blocks its host', () => {
  it.each([
    [['hook', 'gate-from-a-newer-plugin']],
    [['hook']],
    [['hook', 'digest-record', '--an-option-from-a-newer-plugin', 'extra']],
  ])('`tally %j` exits 0 and says why', async (args) => {
    const home = tempDir();
    const result = await runTally(args, { input: '{}', env: { XDG_STATE_HOME: home } });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/error: unknown/);
    expect(result.stderr).toMatch(/^tally hook/);
  });

  it('an unknown hook name is logged as hook-unknown', async () => {
    const home = tempDir();
    await runTally(['hook', 'nope'], { input: '{}', env: { XDG_STATE_HOME: home } });
    const log = readFileSync(join(home, 'tally', 'fail-open.jsonl'), 'utf8');
    expect(JSON.parse(log.trim().split('\n').at(-1) as string)).toMatchObject({ why: 'hook-unknown' });
  });

  it("each hook process records its own reasons by name, never as unrecognized: (they are declared by the hooks' modules, not core)", async () => {
    const payload = readFileSync(join(FIXTURES, 'pre-tool-use-write.json'), 'utf8');
    for (const [args, input, env, why] of [
      [['hook', 'gate-how-do-i'], 'not JSON', {}, 'malformed-payload'],
      [['hook', 'gate-am-i-done'], '[1,2]', {}, 'non-object-payload'],
      [['hook', 'digest-record'], 'not JSON', {}, 'malformed-payload'],
      [['hook', 'gate-how-do-i'], payload, { TALLY_GATE_HOW_DO_I: 'off' }, 'gate-disabled'],
      [['hook', 'nope'], '{}', {}, 'hook-unknown'],
    ] as const) {
      const home = tempDir();
      const result = await runTally([...args], { input, env: { XDG_STATE_HOME: home, ...env } });
      expect(result.code, args.join(' ')).toBe(0);
      const lines = readFileSync(join(home, 'tally', 'fail-open.jsonl'), 'utf8')
        .trim()
        .split('\n');
      expect(
        lines.map((line) => JSON.parse(line).why),
        `${args.join(' ')} ${input.slice(0, 20)}`,
      ).toEqual([why]);
    }
  });
});

describe('state folders under file systems that lie about parents (/proc)', () => {
  it('makeDirs makes each missing level once and fails fast where it cannot', () => {
    const base = tempDir();
    makeDirs(join(base, 'a', 'b', 'c'));
    expect(existsSync(join(base, 'a', 'b', 'c'))).toBe(true);
    makeDirs(join(base, 'a', 'b', 'c'));
    expect(() => makeDirs('/proc/.tally-test/x')).toThrow(/ENOENT|EACCES|EPERM/);
  });

  it('`tally scout --root /proc` ends at once with exit 3 and a clear message, never spins', async () => {
    const result = await runTally(['scout', 'release a version', '--root', '/proc']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/No record stores under \/proc/);
  });

  it('`tally scout` with its ledger under /proc ends at once with exit 3 and a clear message, never spins', async () => {
    const root = tempDir();
    makeDirs(join(root, 'references', 'decisions'));
    const result = await runTally(['scout', 'release a version', '--root', root], {
      env: { TALLY_LEDGER: '/proc/.tally/ledger.db' },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/Cannot open the ledger at \/proc\/\.tally\/ledger\.db/);
  });
});
