import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createFailOpen } from '../../src/core/fail-open.js';
import {
  declareFailOpenReasons,
  FAIL_OPEN_REASONS,
  FailOpenReasonTakenError,
  failOpenReasonOwner,
  isFailOpenReason,
} from '../../src/core/fail-open-reasons.js';
// The modules that record the hooks' reasons, as a hook process loads them.
import '../../src/packs/records/digests/hook-state.js';
import '../../src/surfaces/claude-code/run-turn-check-hook.js';
import { tempDir } from '../helpers.js';

const readLines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('fail-open recorder', () => {
  it('appends one JSON line with ts, component, why and session for a known why', () => {
    const log = join(tempDir(), 'state', 'fail-open.jsonl');
    const failOpen = createFailOpen({ logPath: log });
    failOpen('digest-hook', 'malformed-payload', 'session-1');
    const [line] = readLines(log);
    expect(JSON.parse(line as string)).toEqual({
      ts: expect.any(String),
      component: 'digest-hook',
      why: 'malformed-payload',
      session: 'session-1',
    });
  });

  it('stores an unknown why as unrecognized:<why>', () => {
    const log = join(tempDir(), 'fail-open.jsonl');
    createFailOpen({ logPath: log })('gate', 'made-up-reason');
    expect(JSON.parse(readLines(log)[0] as string).why).toBe('unrecognized:made-up-reason');
  });

  it('a why with a newline or a quote cannot add a line or a key', () => {
    const log = join(tempDir(), 'fail-open.jsonl');
    const failOpen = createFailOpen({ logPath: log });
    failOpen('gate', 'x"\n{"injected":true,"why":"store-unwritable', 'evil"\nsession');
    failOpen('gate"x', 'a\r\nb', '\u2028');
    const lines = readLines(log);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const parsed = JSON.parse(line);
      expect(Object.keys(parsed).sort()).toEqual(['component', 'session', 'ts', 'why']);
      expect(parsed.why).toMatch(/^unrecognized:/);
      expect(JSON.stringify(parsed)).not.toMatch(/\\n|\\r|\\"/);
    }
  });

  it('never throws, even when the log cannot be written', () => {
    const dir = tempDir();
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, 'file');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const onRecord = vi.fn(() => {
      throw new Error('ledger gone');
    });
    expect(() =>
      createFailOpen({ logPath: join(blocker, 'log.jsonl'), onRecord })('gate', 'store-unwritable'),
    ).not.toThrow();
    expect(onRecord).toHaveBeenCalledOnce();
    expect(stderr).toHaveBeenCalled();
    stderr.mockRestore();
  });

  it("core's vocabulary holds only core's reasons; the hooks' modules declare theirs, by owner", () => {
    expect(new Set(FAIL_OPEN_REASONS).size).toBe(FAIL_OPEN_REASONS.length);
    expect(FAIL_OPEN_REASONS).toContain('gate-tool-unregistered');
    expect(FAIL_OPEN_REASONS).toContain('store-unwritable');
    for (const [why, owner] of [
      ['malformed-payload', 'records'],
      ['non-object-payload', 'records'],
      ['payload-shape-unrecognized', 'records'],
      ['skill-unresolvable', 'claude-code'],
      ['gate-disabled', 'claude-code'],
    ] as const) {
      expect(FAIL_OPEN_REASONS as readonly string[]).not.toContain(why);
      expect(isFailOpenReason(why), why).toBe(true);
      expect(failOpenReasonOwner(why)).toBe(owner);
    }
  });

  it("an owner's declared reason is recorded as itself; one that core or another owner holds is refused, naming the holder", () => {
    expect(declareFailOpenReasons('test-owner', ['test-owner-jammed'])).toEqual(['test-owner-jammed']);
    const log = join(tempDir(), 'fail-open.jsonl');
    createFailOpen({ logPath: log })('test', 'test-owner-jammed');
    expect(JSON.parse(readLines(log)[0] as string).why).toBe('test-owner-jammed');
    expect(() => declareFailOpenReasons('intruder', ['ledger-unavailable'])).toThrow(
      FailOpenReasonTakenError,
    );
    expect(() => declareFailOpenReasons('intruder', ['malformed-payload'])).toThrow(
      'already declared by pack "records"',
    );
  });
});
