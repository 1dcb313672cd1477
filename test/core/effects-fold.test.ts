import { describe, expect, it } from 'vitest';
import {
  changingStep,
  createdResources,
  type Effect,
  firstChange,
  type NetEffect,
  netEffects,
  resourceId,
} from '../../src/core/effects.js';
import type { LedgerEntry } from '../../src/core/ledger/entry.js';

/** A ledger of tool calls, numbered from 1, each carrying its effects (on /items/1 unless said). */
function ledger(...calls: (Partial<Effect>[] | LedgerEntry)[]): LedgerEntry[] {
  return calls.map((call, index) =>
    Array.isArray(call)
      ? {
          runId: 'r',
          seq: index + 1,
          ts: '',
          kind: 'tool_call',
          name: 'request',
          outcome: 'ok',
          data: {
            tool: 'request',
            target: 'POST /items',
            input: {},
            evidence: {
              via: `call #${index + 1}`,
              effects: call.map((effect) => ({ space: 'http', key: '/items/1', ...effect })),
            },
          },
        }
      : { ...call, seq: index + 1 },
  );
}

const item = (entries: LedgerEntry[]) => netEffects(entries).get('http:/items/1') as NetEffect;

describe('the fold keeps the facts of the latest step', () => {
  it('a later update replaces the title and keeps the fields it does not mention', () => {
    const net = item(
      ledger(
        [{ kind: 'created', observed: { title: 'Draft', links: { suiteId: '7' } } }],
        [{ kind: 'updated', observed: { title: 'Final' } }],
      ),
    );
    expect(net.change).toBe('created');
    expect(net.observed).toEqual({ title: 'Final', links: { suiteId: '7' } });
  });

  it('a read after a create refreshes what was observed, and is remembered as a read', () => {
    const net = item(
      ledger(
        [{ kind: 'created', observed: { title: 'A', status: 201 } }],
        [{ kind: 'read', observed: { title: 'B' } }],
      ),
    );
    expect(net).toMatchObject({ change: 'created', read: true, preExisting: false });
    expect(net.observed).toEqual({ title: 'B', status: 201 });
  });

  it('a read after a delete does not bring back the deleted facts', () => {
    const net = item(
      ledger(
        [{ kind: 'deleted', observed: { status: 204 } }],
        [{ kind: 'read', observed: { title: 'ghost' } }],
      ),
    );
    expect(net.change).toBe('deleted');
    expect(net.observed).toEqual({ status: 204 });
  });

  it('the id and type stay when a later step does not carry them, and change when it does', () => {
    const kept = item(ledger([{ kind: 'created', id: '1', type: 'item' }], [{ kind: 'updated' }]));
    expect([kept.id, kept.type]).toEqual(['1', 'item']);
    const renamed = item(ledger([{ kind: 'read' }], [{ kind: 'updated', id: '1', type: 'entry' }]));
    expect([renamed.id, renamed.type]).toEqual(['1', 'entry']);
  });
});

describe('what the run saw before it acted', () => {
  it('a resource read before any change existed before the run', () => {
    expect(item(ledger([{ kind: 'read' }])).preExisting).toBe(true);
    expect(item(ledger([{ kind: 'read' }], [{ kind: 'read' }], [{ kind: 'created' }])).change).toBe(
      'updated',
    );
  });

  it('a resource created by the run, then read, did not exist before it', () => {
    const net = item(ledger([{ kind: 'created' }], [{ kind: 'read' }]));
    expect(net.preExisting).toBe(false);
    expect(net.change).toBe('created');
  });

  it('a read of what the run created and deleted does not make it pre-existing', () => {
    const net = item(
      ledger([{ kind: 'created' }], [{ kind: 'deleted' }], [{ kind: 'read' }], [{ kind: 'created' }]),
    );
    expect(net.preExisting).toBe(false);
    expect(net.change).toBe('created');
  });

  it('an update or a delete of something the run did not create means it existed before', () => {
    expect(item(ledger([{ kind: 'updated' }])).preExisting).toBe(true);
    expect(item(ledger([{ kind: 'deleted' }])).preExisting).toBe(true);
    expect(item(ledger([{ kind: 'updated' }], [{ kind: 'created' }])).change).toBe('updated');
    expect(item(ledger([{ kind: 'created' }], [{ kind: 'updated' }])).preExisting).toBe(false);
    expect(item(ledger([{ kind: 'created' }], [{ kind: 'deleted' }])).preExisting).toBe(false);
  });
});

describe('only successful tool calls with well-formed effects count', () => {
  const base = ledger([{ kind: 'created' }])[0] as LedgerEntry;

  it.each([
    ['a failed call', { ...base, outcome: 'error' }],
    ['a refused call', { ...base, outcome: 'rejected' }],
    ['a claim entry', { ...base, kind: 'claim' as const }],
    ['a call without evidence', { ...base, data: { tool: 'request' } }],
    [
      'effects that are not a list',
      { ...base, data: { tool: 'request', evidence: { effects: { kind: 'created' } } } },
    ],
  ])('%s has no effects', (_name, entry) => {
    expect(netEffects([entry as LedgerEntry]).size).toBe(0);
  });

  it('skips an effect without a key or with an unknown kind, keeping the others of the same call', () => {
    const entries = ledger([
      { kind: 'created', key: undefined as unknown as string },
      { kind: 'moved' as Effect['kind'], key: '/items/2' },
      { kind: 'created', key: 42 as unknown as string },
      { kind: 'created', key: '/items/3' },
    ]);
    ((entries[0] as LedgerEntry).data.evidence as { effects: unknown[] }).effects.unshift(null);
    expect([...netEffects(entries).keys()]).toEqual(['http:/items/3']);
  });

  it('without a via, a step is cited by its tool and target', () => {
    const [entry] = ledger([{ kind: 'created' }]);
    const withTarget = {
      ...entry,
      data: {
        tool: 'request',
        target: 'POST /items',
        evidence: { effects: [{ kind: 'created', space: 'http', key: '/k' }] },
      },
    };
    const noTarget = {
      ...entry,
      data: { tool: 'fs_write', evidence: { effects: [{ kind: 'created', space: 'file', key: 'a' }] } },
    };
    const nets = netEffects([withTarget, noTarget] as LedgerEntry[]);
    expect(nets.get('http:/k')?.history[0]?.via).toBe('request POST /items');
    expect(nets.get('file:a')?.history[0]?.via).toBe('fs_write ');
  });

  it('a step records a move and a reconciled create, and nothing extra otherwise', () => {
    const net = item(
      ledger(
        [{ kind: 'created', reconciledFrom: 'POST /items → 502' }],
        [{ kind: 'deleted', movedTo: '/archive/1' }],
        [{ kind: 'created', movedTo: '', reconciledFrom: '' }],
      ),
    );
    expect(net.history).toEqual([
      { kind: 'created', seq: 1, via: 'call #1', reconciledFrom: 'POST /items → 502' },
      { kind: 'deleted', seq: 2, via: 'call #2', movedTo: '/archive/1' },
      { kind: 'created', seq: 3, via: 'call #3', reconciledFrom: '' },
    ]);
  });

  it('keys a resource by its space and its key', () => {
    expect(resourceId('file', 'a.txt')).toBe('file:a.txt');
    const nets = netEffects(ledger([{ kind: 'created', space: 'file', key: 'a.txt' }]));
    expect(nets.get('file:a.txt')).toMatchObject({ space: 'file', key: 'a.txt', change: 'created' });
  });
});

describe('created resources, first change, changing step', () => {
  it('lists only what the run created and still has, in the order it was created', () => {
    const entries = ledger(
      [{ kind: 'created', key: '/b/2' }],
      [{ kind: 'created', key: '/a/1' }],
      [{ kind: 'updated', key: '/c/3' }],
      [{ kind: 'created', key: '/d/4' }],
      [{ kind: 'deleted', key: '/d/4' }],
      [{ kind: 'read', key: '/e/5' }],
      [{ kind: 'created', key: '/f/6' }],
    );
    expect(createdResources(netEffects(entries)).map((net) => net.key)).toEqual(['/b/2', '/a/1', '/f/6']);
  });

  it('orders by the first change even when the map order differs', () => {
    const late: NetEffect = {
      space: 'http',
      key: '/late',
      change: 'created',
      read: true,
      preExisting: false,
      observed: {},
      history: [
        { kind: 'read', seq: 1, via: 'r' },
        { kind: 'created', seq: 9, via: 'c' },
      ],
    };
    const early: NetEffect = { ...late, key: '/early', history: [{ kind: 'created', seq: 5, via: 'c' }] };
    const nets = new Map([
      ['http:/late', late],
      ['http:/early', early],
    ]);
    expect(createdResources(nets).map((net) => net.key)).toEqual(['/early', '/late']);
    expect(firstChange(late)).toBe(9);
  });

  it('the first change of a read-only resource is its first read; of nothing, 0', () => {
    const read = item(ledger([], [{ kind: 'read' }], [{ kind: 'read' }]));
    expect(firstChange(read)).toBe(2);
    expect(firstChange({ ...read, history: [] })).toBe(0);
  });

  it('the changing step is the latest write, never a read', () => {
    const net = item(ledger([{ kind: 'created' }], [{ kind: 'updated' }], [{ kind: 'read' }]));
    expect(changingStep(net)).toMatchObject({ kind: 'updated', seq: 2 });
    expect(changingStep(item(ledger([{ kind: 'read' }])))).toBeUndefined();
  });
});
