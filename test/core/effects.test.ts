import { describe, expect, it } from 'vitest';
import { createdResources, type Effect, netEffects } from '../../src/core/effects.js';
import type { LedgerEntry } from '../../src/core/ledger/entry.js';

let seq = 0;
/** A successful (or failed) tool_call entry carrying effects, as the ledger stores it. */
function call(effects: Partial<Effect>[], outcome: 'ok' | 'error' = 'ok', via = 'tool'): LedgerEntry {
  seq += 1;
  return {
    runId: 'r',
    seq,
    ts: '',
    kind: 'tool_call',
    name: 'tool',
    outcome,
    data: {
      tool: 'tool',
      target: 't',
      input: {},
      evidence: {
        via: `${via} #${seq}`,
        effects: effects.map((effect) => ({ space: 'file', key: 'a.txt', ...effect })),
      },
    },
  };
}

const netOf = (...entries: LedgerEntry[]) => netEffects(entries).get('file:a.txt');

describe('net effects: one final state per resource, folded in ledger order', () => {
  it.each([
    ['created', ['created'], 'created'],
    ['created then updated', ['created', 'updated'], 'created'],
    ['created then deleted: nothing of ours is left', ['created', 'deleted'], undefined],
    ['updated', ['updated'], 'updated'],
    ['updated then deleted', ['updated', 'deleted'], 'deleted'],
    ['deleted then created again: it existed before, so net an update', ['deleted', 'created'], 'updated'],
    ['read, then "created": it existed before the run, so an update', ['read', 'created'], 'updated'],
    ['read only', ['read'], undefined],
    ['created, deleted, created: ours', ['created', 'deleted', 'created'], 'created'],
    ['created then read', ['created', 'read'], 'created'],
    ['updated, then "created" (an upsert of something that existed)', ['updated', 'created'], 'updated'],
  ] as const)('%s', (_name, kinds, change) => {
    const net = netOf(...kinds.map((kind) => call([{ kind }])));
    expect(net?.change).toBe(change);
  });

  it('a read of an item carrying this run’s marker, then its create: ours, not something that existed', () => {
    // A collection read beside an in-flight create lists the item before the create's answer lands.
    const marked = { kind: 'read' as const, observed: { title: 'Suite 2 · a1b2c3', titleMarker: 'a1b2c3' } };
    expect(netOf(call([marked]), call([{ kind: 'created' }]))?.change).toBe('created');
    expect(netOf(call([marked]), call([{ kind: 'created' }]))?.preExisting).toBeFalsy();
    // Without the marker the same read proves it existed: the create is an update.
    const unmarked = { kind: 'read' as const, observed: { title: 'Suite 2' } };
    expect(netOf(call([unmarked]), call([{ kind: 'created' }]))?.change).toBe('updated');
  });

  it('keeps the latest observation, and whether the run read the resource', () => {
    const net = netOf(
      call([{ kind: 'created', observed: { sha256: 'aaa', bytes: 1 } }]),
      call([{ kind: 'updated', observed: { sha256: 'bbb', bytes: 2 } }]),
      call([{ kind: 'read' }]),
    );
    expect(net).toMatchObject({ change: 'created', read: true, observed: { sha256: 'bbb', bytes: 2 } });
    expect(net?.history.map((step) => step.kind)).toEqual(['created', 'updated', 'read']);
  });

  it('ignores failed calls: a failed call has no effects', () => {
    expect(netOf(call([{ kind: 'created' }], 'error'))).toBeUndefined();
  });

  it('a move is a delete of the source and a create of the destination', () => {
    const nets = netEffects([
      call([{ kind: 'created', key: 'draft.md' }]),
      call([
        { kind: 'deleted', key: 'draft.md', movedTo: 'final.md' },
        { kind: 'created', key: 'final.md', movedFrom: 'draft.md' },
      ]),
    ]);
    expect(nets.get('file:draft.md')?.change).toBeUndefined();
    expect(nets.get('file:draft.md')?.history.at(-1)).toMatchObject({ kind: 'deleted', movedTo: 'final.md' });
    expect(nets.get('file:final.md')?.change).toBe('created');
  });

  it('the same key in two spaces, or two collections sharing an id, are different resources', () => {
    const nets = netEffects([
      call([{ kind: 'created', space: 'http', key: '/posts/1', id: '1', type: 'post' }]),
      call([{ kind: 'created', space: 'http', key: '/comments/1', id: '1', type: 'comment' }]),
      call([{ kind: 'created', space: 'record', key: '/posts/1' }]),
    ]);
    expect(nets.size).toBe(3);
    expect(createdResources(nets).map((net) => `${net.space}:${net.key}`)).toEqual([
      'http:/posts/1',
      'http:/comments/1',
      'record:/posts/1',
    ]);
  });

  it('skips malformed effects instead of failing the fold', () => {
    const entry = call([{ kind: 'created' }]);
    (entry.data.evidence as { effects: unknown[] }).effects.push(
      null,
      { kind: 'made', key: 'x' },
      { kind: 'created' },
    );
    expect(() => netEffects([entry])).not.toThrow();
    expect(netEffects([entry]).size).toBe(1);
  });
});
