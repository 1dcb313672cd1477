import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createFailOpen } from '../../src/core/fail-open.js';
import { FAIL_OPEN_REASONS } from '../../src/core/fail-open-reasons.js';
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

  it('declares its vocabulary in one place, with no duplicates', () => {
    expect(new Set(FAIL_OPEN_REASONS).size).toBe(FAIL_OPEN_REASONS.length);
    for (const why of [
      'store-unwritable',
      'malformed-payload',
      'non-object-payload',
      'payload-shape-unrecognized',
      'skill-unresolvable',
      'gate-tool-unregistered',
    ]) {
      expect(FAIL_OPEN_REASONS).toContain(why);
    }
  });
});
