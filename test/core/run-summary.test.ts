import { describe, expect, it } from 'vitest';
import { netEffects } from '../../src/core/effects.js';
import { unresolvedIntents } from '../../src/core/intents.js';
import type { LedgerEntry } from '../../src/core/ledger/entry.js';
import { RunSummaryFold } from '../../src/core/run-summary.js';

let seq = 0;
const at = (entry: Omit<LedgerEntry, 'seq' | 'ts'>): LedgerEntry =>
  ({ ...entry, seq: ++seq, ts: '2026-12-02T05:00:00.000Z' }) as LedgerEntry;
const intent = (intentId: string, key = 'a.ts') =>
  at({
    kind: 'intent',
    name: 'fs_write',
    data: { intentId, tool: 'fs_write', action: 'write', resources: [{ space: 'file', key }] },
  } as never);
const answer = (...intents: string[]) =>
  at({ kind: 'tool_call', name: 'fs_write', outcome: 'ok', data: { tool: 'fs_write', intents } } as never);
const write = (kind: string, key: string, content: string) =>
  at({
    kind: 'tool_call',
    name: 'fs_write',
    outcome: 'ok',
    data: {
      tool: 'fs_write',
      input: { path: key, content },
      evidence: { via: `fs_write ${key}`, effects: [{ kind, space: 'file', key }] },
    },
  } as never);

describe('unresolvedIntents', () => {
  it('lists, in ledger order, exactly the intents no tool call anywhere answers: before, after, or an id twice', () => {
    const entries = [
      answer('early'),
      intent('early'),
      intent('late'),
      intent('open-1', 'b.ts'),
      intent('twice'),
      answer('late'),
      intent('open-2', 'c.ts'),
      intent('twice'),
      answer('twice'),
      intent('twice'),
      intent('open-1', 'd.ts'),
    ];
    expect(unresolvedIntents(entries).map((open) => [open.intentId, open.resources[0]?.key])).toEqual([
      ['open-1', 'b.ts'],
      ['open-2', 'c.ts'],
      ['open-1', 'd.ts'],
    ]);
  });
});

describe('RunSummaryFold', () => {
  it('holds the net state, not the tool calls: a 20,000-call run with a 4 KiB input each folds to a summary of its resources', () => {
    const fold = new RunSummaryFold();
    const entries: LedgerEntry[] = [];
    const content = 'x'.repeat(4096);
    for (let index = 0; index < 20_000; index++) {
      const entry = write(index < 10_000 ? 'created' : 'deleted', `f${index % 10_000}.ts`, content);
      entries.push(entry);
      fold.add(entry);
    }
    const summary = fold.result();
    expect(summary.nets).toEqual(netEffects(entries));
    // Every resource created, then deleted: none left changed, each with its two steps.
    expect([...summary.nets.values()].filter((net) => net.change !== undefined)).toEqual([]);
    expect(summary.nets.get('file:f9999.ts')?.history.map((step) => step.kind)).toEqual([
      'created',
      'deleted',
    ]);
    // No input survives the fold: what is held is the resources' history, ~40 bytes a step.
    const held = JSON.stringify([...summary.nets.values()]);
    expect(held).not.toContain(content);
    expect(held.length).toBeLessThan(20_000 * 200);
  });

  it('keeps every claim, the first contract and the first end, whatever pages they came on', () => {
    const fold = new RunSummaryFold();
    const contract = at({ kind: 'contract', data: { source: 'task', description: 'first' } } as never);
    const end = at({
      kind: 'end',
      outcome: 'finished',
      data: { reason: 'finished', status: 'success' },
    } as never);
    const claims = [1, 2].map((n) =>
      at({
        kind: 'claim',
        outcome: 'verified',
        data: { claim: { target: `f${n}` }, via: 'fs_write' },
      } as never),
    );
    for (const entry of [
      contract,
      claims[0] as LedgerEntry,
      at({ kind: 'contract', data: { source: 'task', description: 'second' } } as never),
      end,
      claims[1] as LedgerEntry,
      at({ kind: 'end', outcome: 'finished', data: { reason: 'again', status: 'partial' } } as never),
    ])
      fold.add(entry);
    const summary = fold.result();
    expect(summary.contract).toBe(contract);
    expect(summary.end).toBe(end);
    expect(summary.claims).toEqual(claims);
  });
});
