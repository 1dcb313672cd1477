import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { resolveLedgerPath } from '../../../src/core/ledger/resolve-ledger-path.js';
import { tempDir, tempLedger } from '../../helpers.js';

// The ledger's semantics run on both stores in ledger-backends.test.ts; here is what is about
// SQLite's files only: the bytes on disk (database and WAL), and where the file is.
describe('ledger (SQLite files)', () => {
  it('a secret in a tool input header and body never reaches the database files', () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'http', task: 'create a suite' });
    recorder.append({
      kind: 'tool_call',
      name: 'request',
      outcome: 'ok',
      data: {
        input: {
          headers: {
            Authorization: 'Bearer sk-live-HEADERSECRET-123456',
            'x-csrf-token': 'CSRFSECRET987654',
          },
          body: JSON.stringify({ title: 'Suite', password: 'BODYSECRET-hunter2' }),
        },
        note: 'the model echoed sk-live-HEADERSECRET-123456 back',
      },
    });
    ledger.close();
    const dir = dirname(ledger.path);
    const bytes = readdirSync(dir)
      .filter((name) => name.startsWith('ledger.db'))
      .map((name) => readFileSync(join(dir, name)).toString('latin1'))
      .join('');
    expect(bytes).toContain('Suite');
    for (const secret of ['HEADERSECRET', 'CSRFSECRET987654', 'BODYSECRET-hunter2'])
      expect(bytes).not.toContain(secret);
  });

  it('resolves its location from --ledger, then TALLY_LEDGER, then .tally/ledger.db', () => {
    const cwd = tempDir();
    expect(resolveLedgerPath({ flag: 'x.db', env: { TALLY_LEDGER: 'y.db' }, cwd })).toBe(join(cwd, 'x.db'));
    expect(resolveLedgerPath({ env: { TALLY_LEDGER: 'y.db' }, cwd })).toBe(join(cwd, 'y.db'));
    expect(resolveLedgerPath({ env: {}, cwd })).toBe(join(cwd, '.tally', 'ledger.db'));
    expect(resolveLedgerPath({ env: {}, cwd, projectDir: '/srv/project' })).toBe(
      '/srv/project/.tally/ledger.db',
    );
    expect(resolveLedgerPath({ flag: 'x.db', env: {}, cwd, projectDir: '/srv/project' })).toBe(
      join(cwd, 'x.db'),
    );
  });

  it('an unusable location is a clear error naming the path and the fix', () => {
    const dir = tempDir();
    expect(() => Ledger.open(join(dir, 'missing-dir', 'x.db'), { readonly: true })).toThrow(
      /Cannot open the ledger at .*TALLY_LEDGER/,
    );
  });
});
