import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { resolveLedgerPath } from '../../../src/core/ledger/resolve-ledger-path.js';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { tempDir, tempLedger } from '../../helpers.js';

const run = promisify(execFile);
const worker = join(import.meta.dirname, 'append-worker.ts');

describe('ledger', () => {
  it('is append-only: the database itself refuses updates and deletes', () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'a', task: 't' });
    recorder.append({ kind: 'guard', name: 'loop', outcome: 'nudge', data: {} });
    ledger.close();
    const raw = openSqlite(ledger.path);
    expect(() => raw.prepare("UPDATE entries SET outcome = 'end'").run()).toThrow(/append-only/);
    expect(() => raw.prepare('DELETE FROM entries').run()).toThrow(/append-only/);
    expect(() => raw.prepare("UPDATE runs SET agent = 'b'").run()).toThrow(/append-only/);
    raw.close();
  });

  it('numbers entries per run and reads them back in order, with the run listing showing the ending', () => {
    const ledger = tempLedger();
    const first = ledger.startRun({ agent: 'a', task: 'first' });
    const second = ledger.startRun({ agent: 'b', task: 'second' });
    first.append({ kind: 'tool_call', name: 'x', outcome: 'ok', data: { n: 1 } });
    second.append({ kind: 'tool_call', name: 'y', outcome: 'error', data: { n: 2 } });
    first.append({ kind: 'end', outcome: 'finished', data: { status: 'success', summary: 's' } });
    expect(first.entries().map((entry) => [entry.seq, entry.kind])).toEqual([
      [1, 'tool_call'],
      [2, 'end'],
    ]);
    expect(second.entries().map((entry) => entry.seq)).toEqual([1]);
    const listing = ledger.listRuns();
    expect(listing.map((entry) => entry.id)).toEqual([second.runId, first.runId]);
    expect(listing[1]).toMatchObject({
      agent: 'a',
      endingReason: 'finished',
      status: 'success',
      toolCalls: 1,
    });
    expect(listing[0]).toMatchObject({ endingReason: null, status: null });
    expect(ledger.getRun(first.runId).run.task).toBe('first');
    expect(() => ledger.getRun('run_missing')).toThrow(/No run "run_missing".*tally runs/);
  });

  it('run ids sort by creation time', () => {
    const ledger = tempLedger();
    const ids = Array.from({ length: 5 }, () => ledger.startRun({ agent: 'a', task: 't' }).runId);
    expect([...ids].sort()).toEqual(ids);
  });

  it('two processes appending 1,000 entries each to one run lose none', async () => {
    const ledger = tempLedger();
    const { runId } = ledger.startRun({ agent: 'parallel', task: 'append' });
    await Promise.all(
      ['left', 'right'].map((label) =>
        run(process.execPath, ['--import', 'tsx', worker, ledger.path, runId, '1000', label]),
      ),
    );
    const entries = ledger.entries(runId);
    expect(entries).toHaveLength(2000);
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 2000 }, (_, index) => index + 1));
    for (const label of ['left', 'right']) {
      const indexes = entries.filter((entry) => entry.data.label === label).map((entry) => entry.data.index);
      expect(indexes).toEqual(Array.from({ length: 1000 }, (_, index) => index));
    }
  });

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
