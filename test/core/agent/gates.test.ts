import { describe, expect, it } from 'vitest';
import { FINISH_TOOL } from '../../../src/core/agent/finish-spec.js';
import { GateKeeper, type GateRule } from '../../../src/core/agent/gate-keeper.js';
import { tempLedger } from '../../helpers.js';

/** A GateKeeper over a real ledger run, with the fail-open calls it makes collected. */
function keeper(rules: GateRule[], registered: string[]) {
  const recorder = tempLedger().startRun({ agent: 'gate-test', task: 'gates' });
  const failOpens: unknown[][] = [];
  const gates = new GateKeeper(rules, new Set(registered), recorder, (...args) => {
    failOpens.push(args);
  });
  const gateEntries = () =>
    recorder
      .entries()
      .filter((entry) => entry.kind === 'gate')
      .map(({ kind, name, outcome, data }) => ({ kind, name, outcome, data }));
  return { gates, recorder, failOpens, gateEntries };
}

const LOOK_FIRST: GateRule = {
  name: 'look-first',
  kind: 'requires',
  tools: ['put', 'delete'],
  requires: 'get',
};
const AM_I_DONE: GateRule = { name: 'am-i-done', kind: 'check_before_finish', check: 'verify' };

describe('requires gates', () => {
  it('deny a gated tool until the required tool succeeded, with an exact message and a ledger entry', () => {
    const { gates, gateEntries, failOpens } = keeper([LOOK_FIRST], ['get', 'put', 'delete']);
    expect(gates.check('put')).toEqual({
      allowed: false,
      message:
        'Gate "look-first": put may not run yet in this turn. Call get first and make sure it succeeds.',
    });
    expect(gates.check('delete')).toMatchObject({ allowed: false });
    expect(gateEntries()).toEqual([
      {
        kind: 'gate',
        name: 'look-first',
        outcome: 'denied',
        data: { gate: 'look-first', tool: 'put', satisfiedBy: 'get' },
      },
      {
        kind: 'gate',
        name: 'look-first',
        outcome: 'denied',
        data: { gate: 'look-first', tool: 'delete', satisfiedBy: 'get' },
      },
    ]);
    gates.noteSuccess('get');
    expect(gates.check('put')).toEqual({ allowed: true });
    expect(gates.check('delete')).toEqual({ allowed: true });
    expect(gateEntries()).toHaveLength(2);
    expect(failOpens).toEqual([]);
  });

  it('leave tools outside the gate alone, and are not satisfied by some other tool succeeding', () => {
    const { gates, gateEntries } = keeper([LOOK_FIRST], ['get', 'put', 'delete', 'list']);
    expect(gates.check('list')).toEqual({ allowed: true });
    expect(gates.check('get')).toEqual({ allowed: true });
    gates.noteSuccess('list');
    expect(gates.check('put')).toMatchObject({ allowed: false });
    expect(gateEntries().map((entry) => entry.data.tool)).toEqual(['put']);
  });

  it('a gate whose required tool is not registered releases every time, records it each time, and fails open once', () => {
    const { gates, gateEntries, failOpens, recorder } = keeper([LOOK_FIRST], ['put', 'delete']);
    expect(gates.check('put')).toEqual({ allowed: true });
    expect(gates.check('delete')).toEqual({ allowed: true });
    expect(gateEntries()).toEqual([
      {
        kind: 'gate',
        name: 'look-first',
        outcome: 'released',
        data: { gate: 'look-first', tool: 'put', satisfiedBy: 'get' },
      },
      {
        kind: 'gate',
        name: 'look-first',
        outcome: 'released',
        data: { gate: 'look-first', tool: 'delete', satisfiedBy: 'get' },
      },
    ]);
    expect(failOpens).toEqual([['gate', 'gate-tool-unregistered', recorder.runId]]);
  });

  it('each released gate fails open once on its own', () => {
    const other: GateRule = { name: 'scout-first', kind: 'requires', tools: ['put'], requires: 'scout' };
    const { gates, failOpens, gateEntries } = keeper([LOOK_FIRST, other], ['put']);
    expect(gates.check('put')).toEqual({ allowed: true });
    expect(gates.check('put')).toEqual({ allowed: true });
    expect(failOpens).toHaveLength(2);
    expect(gateEntries().map((entry) => [entry.name, entry.outcome])).toEqual([
      ['look-first', 'released'],
      ['scout-first', 'released'],
      ['look-first', 'released'],
      ['scout-first', 'released'],
    ]);
  });

  it('a released gate does not hide the gates after it', () => {
    const other: GateRule = { name: 'list-first', kind: 'requires', tools: ['put'], requires: 'list' };
    const { gates, gateEntries } = keeper([LOOK_FIRST, other], ['put', 'list']);
    expect(gates.check('put')).toEqual({
      allowed: false,
      message:
        'Gate "list-first": put may not run yet in this turn. Call list first and make sure it succeeds.',
    });
    expect(gateEntries().map((entry) => [entry.name, entry.outcome])).toEqual([
      ['look-first', 'released'],
      ['list-first', 'denied'],
    ]);
  });

  it('a satisfied gate does not hide the gates after it', () => {
    const other: GateRule = { name: 'list-first', kind: 'requires', tools: ['put'], requires: 'list' };
    const { gates } = keeper([LOOK_FIRST, other], ['put', 'get', 'list']);
    gates.noteSuccess('get');
    expect(gates.check('put')).toMatchObject({
      allowed: false,
      message: expect.stringContaining('list-first'),
    });
    gates.noteSuccess('list');
    expect(gates.check('put')).toEqual({ allowed: true });
  });
});

describe('check_before_finish gates', () => {
  it('ask once before finishing, with an exact message and a ledger entry; the second finish passes', () => {
    const { gates, gateEntries } = keeper([AM_I_DONE], ['verify']);
    expect(gates.check(FINISH_TOOL)).toEqual({
      allowed: false,
      message:
        'Gate "am-i-done": before finishing, run verify (asked once per turn), then call finish again.',
    });
    expect(gates.check(FINISH_TOOL)).toEqual({ allowed: true });
    expect(gateEntries()).toEqual([
      {
        kind: 'gate',
        name: 'am-i-done',
        outcome: 'denied',
        data: { gate: 'am-i-done', tool: FINISH_TOOL, satisfiedBy: 'verify' },
      },
    ]);
  });

  it('only finish is gated', () => {
    const { gates, gateEntries } = keeper([AM_I_DONE], ['verify', 'put']);
    expect(gates.check('put')).toEqual({ allowed: true });
    expect(gates.check('verify')).toEqual({ allowed: true });
    expect(gateEntries()).toEqual([]);
    // Not asked yet: the first finish is still stopped.
    expect(gates.check(FINISH_TOOL)).toMatchObject({ allowed: false });
  });

  it('are not asked when the check already succeeded', () => {
    const { gates, gateEntries } = keeper([AM_I_DONE], ['verify']);
    gates.noteSuccess('verify');
    expect(gates.check(FINISH_TOOL)).toEqual({ allowed: true });
    expect(gateEntries()).toEqual([]);
  });

  it('two gates each ask once, in order', () => {
    const second: GateRule = { name: 'tests-pass', kind: 'check_before_finish', check: 'run_tests' };
    const { gates } = keeper([AM_I_DONE, second], ['verify', 'run_tests']);
    expect(gates.check(FINISH_TOOL).message).toContain('"am-i-done"');
    expect(gates.check(FINISH_TOOL).message).toContain('"tests-pass"');
    expect(gates.check(FINISH_TOOL)).toEqual({ allowed: true });
  });

  it('an unregistered check releases (recorded each time, one fail-open) and never asks', () => {
    const { gates, gateEntries, failOpens, recorder } = keeper([AM_I_DONE], []);
    expect(gates.check(FINISH_TOOL)).toEqual({ allowed: true });
    expect(gates.check(FINISH_TOOL)).toEqual({ allowed: true });
    expect(gateEntries()).toEqual([
      {
        kind: 'gate',
        name: 'am-i-done',
        outcome: 'released',
        data: { gate: 'am-i-done', tool: FINISH_TOOL, satisfiedBy: 'verify' },
      },
      {
        kind: 'gate',
        name: 'am-i-done',
        outcome: 'released',
        data: { gate: 'am-i-done', tool: FINISH_TOOL, satisfiedBy: 'verify' },
      },
    ]);
    expect(failOpens).toEqual([['gate', 'gate-tool-unregistered', recorder.runId]]);
  });

  it('a released check does not hide the gates after it', () => {
    const second: GateRule = { name: 'tests-pass', kind: 'check_before_finish', check: 'run_tests' };
    const { gates } = keeper([AM_I_DONE, second], ['run_tests']);
    expect(gates.check(FINISH_TOOL)).toMatchObject({
      allowed: false,
      message: expect.stringContaining('"tests-pass"'),
    });
  });
});

describe('mixed gates', () => {
  it('a requires gate does not stop finish; a finish gate does not stop other tools', () => {
    const { gates } = keeper([LOOK_FIRST, AM_I_DONE], ['get', 'put', 'verify']);
    expect(gates.check('put')).toMatchObject({ allowed: false });
    expect(gates.check(FINISH_TOOL)).toMatchObject({
      allowed: false,
      message: expect.stringContaining('verify'),
    });
    expect(gates.check(FINISH_TOOL)).toEqual({ allowed: true });
  });
});
