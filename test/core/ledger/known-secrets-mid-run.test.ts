import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/core/redact.js';
import { tempLedger } from '../../helpers.js';

// A session cookie the app rotates mid-run becomes a secret while runs are under way: the
// ledger's known secrets reach the redactors of runs already started, before their next entry.
describe('secrets learned while a run is under way', () => {
  it('a value the ledger learns after a run started is scrubbed from that run’s later entries', () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'test', task: 'rotate' });
    ledger.knowSecrets(['rotated-cookie-7f3a9c']);
    const appended = recorder.append({
      kind: 'tool_call',
      name: 'request',
      outcome: 'ok',
      data: { body: { trace: 'rotated-cookie-7f3a9c' } },
    });
    expect(JSON.stringify(appended?.data)).not.toContain('rotated-cookie-7f3a9c');
    expect(recorder.redactor.redactText('echo rotated-cookie-7f3a9c')).not.toContain('7f3a9c');
  });

  it('a redactor follows a growing list: values appended later are learned before the next redaction', () => {
    const list = ['first-secret-1'];
    const redactor = createRedactor({ followedSecrets: list });
    expect(redactor.redactText('first-secret-1 later-secret-2')).toBe('[redacted] later-secret-2');
    list.push('later-secret-2');
    expect(redactor.redactText('first-secret-1 later-secret-2')).toBe('[redacted] [redacted]');
  });
});
