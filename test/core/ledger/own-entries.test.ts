import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { tempLedger } from '../../helpers.js';

// A run this process started is read back from the rows it committed (issue 22): what a reader
// gets must be exactly what the store holds, and whatever else reached the store must show.
describe('reading back a run this process wrote', () => {
  const toolCall = (path: string) =>
    ({
      kind: 'tool_call',
      name: 'request',
      outcome: 'ok',
      data: {
        tool: 'request',
        input: { method: 'POST', path, token: 'sk-live-OWNSECRET-123456' },
        result: { status: 201 },
      },
    }) as const;

  it('gives what a separate connection reads from the file, redacted, seq for seq', () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'http', task: 'create suites' });
    recorder.append(toolCall('/suites'));
    ledger.flush();
    recorder.append(toolCall('/suites/1/tests'));
    recorder.append({ kind: 'nudge', data: { text: 'done' } });
    const own = recorder.entries();
    const other = Ledger.open(ledger.path);
    try {
      expect(own).toEqual(other.entries(recorder.runId));
    } finally {
      other.close();
    }
    expect(own.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(JSON.stringify(own)).not.toContain('OWNSECRET');
    // Each read is a fresh copy: a caller changing what it got changes no later read.
    (own[0] as { data: { input: { path: string } } }).data.input.path = '/changed';
    expect(recorder.entries()[0]?.data).toMatchObject({ input: { path: '/suites' } });
  });

  it('shows entries another connection appended to the run after its own last commit', () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'http', task: 'create suites' });
    recorder.append(toolCall('/suites'));
    ledger.flush();
    const other = Ledger.open(ledger.path);
    try {
      other.recorderFor(recorder.runId).append(toolCall('/from-other'));
      other.flush();
      expect(pathsOf(recorder.entries())).toEqual([
        [1, '/suites'],
        [2, '/from-other'],
      ]);
    } finally {
      other.close();
    }
  });

  it('shows entries another connection appended between two of its own commits', () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'http', task: 'create suites' });
    recorder.append(toolCall('/suites'));
    ledger.flush();
    const other = Ledger.open(ledger.path);
    try {
      other.recorderFor(recorder.runId).append(toolCall('/from-other'));
      other.flush();
      recorder.append(toolCall('/suites/2'));
      ledger.flush();
      expect(pathsOf(recorder.entries())).toEqual([
        [1, '/suites'],
        [2, '/from-other'],
        [3, '/suites/2'],
      ]);
    } finally {
      other.close();
    }
  });
});

function pathsOf(entries: LedgerEntry[]): [number, string][] {
  return entries.map((entry) => [entry.seq, (entry.data as { input: { path: string } }).input.path]);
}
