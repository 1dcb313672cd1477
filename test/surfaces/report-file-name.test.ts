import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { runTally, tempDir } from '../helpers.js';

describe('tally report without --out names its file from the run id, inside the current folder', () => {
  it("a run id holding '../' (a ledger anyone can edit) cannot put the report elsewhere", async () => {
    const base = tempDir('tally-report-name-');
    const cwd = join(base, 'a', 'b');
    mkdirSync(cwd, { recursive: true });
    const path = join(base, 'evil.db');
    const ledger = Ledger.open(path);
    const ts = new Date().toISOString();
    ledger.importRuns([
      {
        id: '../../../escaped',
        agent: 'x',
        task: 't',
        startedAt: ts,
        meta: '{}',
        entries: [
          {
            seq: 1,
            ts,
            kind: 'end',
            name: 'finished',
            outcome: 'finished',
            data: '{"reason":"finished","status":"success","summary":"s","verified":0,"dropped":0,"counts":{"modelCalls":0,"toolCalls":0,"failures":0}}',
          },
        ],
      },
    ]);
    ledger.close();
    const run = await runTally(['--ledger', path, 'report', '../../../escaped'], { cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual(['tally-report-.._.._.._escaped.html']);
    expect(readdirSync(join(base, 'a'))).toEqual(['b']);
    expect(existsSync(join(base, 'escaped.html'))).toBe(false);
    expect(readdirSync(base).sort()).toEqual(['a', 'evil.db']);
  });
});
