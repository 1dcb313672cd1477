// The how-do-i gate's first look: a marker a scout run for a session leaves beside its ledger.
// With none since the turn began the gate denies without opening SQLite; the ledger decides.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDeterministicScout } from '../../src/agents/scout/deterministic-scout.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import {
  markScoutSession,
  scoutSessionMarkedAt,
  scoutSessionMarker,
} from '../../src/packs/records/scout-session-marker.js';
import { listStores } from '../../src/packs/records/stores.js';
import { findScoutRun } from '../../src/surfaces/claude-code/scout-run-fact.js';
import { corpus } from '../packs/records/records-fixture.js';

async function scout(root: string, meta: Record<string, unknown>): Promise<string> {
  const ledger = Ledger.open(join(root, '.tally', 'ledger.db'));
  const source = openRecordSource(root, listStores(root));
  try {
    const report = await runDeterministicScout({
      goal: 'release a version',
      root,
      source,
      ledger,
      priorDigests: [],
      meta,
    });
    return report.result.runId;
  } finally {
    source.close();
    ledger.close();
  }
}

describe('the scout session marker', () => {
  it('is left by a scout run for a session once it ended, and only for that session', async () => {
    const root = corpus();
    const ledger = join(root, '.tally', 'ledger.db');
    const turn = new Date(Date.now() - 1000).toISOString();
    const before = Date.now() - 2000;
    const runId = await scout(root, { session: 'session-a' });
    const marked = scoutSessionMarkedAt(ledger, 'session-a');
    expect(typeof marked === 'number' && marked >= before).toBe(true);
    expect(scoutSessionMarkedAt(ledger, 'session-b')).toBeUndefined();
    expect(findScoutRun(ledger, 'session-a', turn)).toEqual({ runId, ledger });
    // A run without a session marks nothing.
    await scout(root, {});
    expect(scoutSessionMarkedAt(ledger, '')).toBeUndefined();
  });

  it('rules out before the ledger is opened, but never rules in: the run must be in the ledger', async () => {
    const root = corpus();
    const ledger = join(root, '.tally', 'ledger.db');
    const turn = new Date(Date.now() - 1000).toISOString();
    await scout(root, { session: 'session-a' });
    const marker = scoutSessionMarker(ledger, 'session-a');
    rmSync(marker);
    expect(findScoutRun(ledger, 'session-a', turn)).toEqual({
      none: expect.stringContaining('no marker beside'),
    });
    // A marker with no run behind it (another session's run only) opens nothing.
    await scout(root, { session: 'session-b' });
    const forged = scoutSessionMarker(ledger, 'session-c');
    expect(existsSync(forged)).toBe(false);
    markScoutSession(ledger, 'session-c');
    expect(findScoutRun(ledger, 'session-c', turn)).toEqual({
      none: expect.stringContaining('no scout run of session session-c'),
    });
  });
});
