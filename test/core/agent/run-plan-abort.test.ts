import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { VerifiedItem } from '../../../src/core/agent/ending.js';
import { runPlan } from '../../../src/core/agent/run-plan.js';
import { createdResources, firstChange } from '../../../src/core/effects.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import { defineTool } from '../../../src/core/tool.js';
import { tempLedger } from '../../helpers.js';
import { itemAgent } from './fixtures.js';

const toolCalls = (entries: LedgerEntry[]) => entries.filter((entry) => entry.kind === 'tool_call');
const ends = (entries: LedgerEntry[]) => entries.filter((entry) => entry.kind === 'end');

/** Items a run made, as the ledger has them: what an interrupted run still reports. */
const itemsFromLedger = (view: { net: Parameters<typeof createdResources>[0] }): VerifiedItem[] =>
  createdResources(view.net).map((net) => ({
    target: net.id ?? net.key,
    type: 'item',
    via: `put_item ${net.id}`,
    evidenceSeq: firstChange(net),
  }));

/** A call that takes `ms` and ignores its abort signal (the worst case for an interrupt). */
const nap = defineTool({
  name: 'nap',
  description: 'Sleeps, deaf to aborts.',
  inputSchema: z.object({ ms: z.number() }),
  annotations: { readOnly: true },
  execute: async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { result: { ok: true, slept: ms } };
  },
});

describe('runPlan with an abort signal (an interrupt)', () => {
  it('starts no call after the abort, ends with exactly one `aborted` end entry and reports what it made before', async () => {
    const ledger = tempLedger();
    const { agent, items } = itemAgent({ itemsFromLedger });
    const controller = new AbortController();
    const attempts: string[] = [];
    const result = await runPlan(
      agent,
      'store ten items',
      async (call) => {
        for (let index = 1; index <= 10; index++) {
          attempts.push(`i${index}`);
          await call('put_item', { id: `i${index}`, value: 'v' });
          if (index === 3) controller.abort('interrupted by SIGINT');
        }
        return { finish: { summary: 'Stored ten.', claims: [] } };
      },
      { ledger, signal: controller.signal },
    );
    const entries = ledger.entries(result.runId);
    // The fourth call was attempted by the plan but never started: no entry, no effect.
    expect(attempts).toEqual(['i1', 'i2', 'i3', 'i4']);
    expect(toolCalls(entries)).toHaveLength(3);
    expect([...items.keys()]).toEqual(['i1', 'i2', 'i3']);
    expect(ends(entries)).toHaveLength(1);
    expect(ends(entries)[0]).toMatchObject({
      outcome: 'aborted',
      data: { status: 'partial', detail: 'interrupted by SIGINT', verified: 3 },
    });
    expect(result).toMatchObject({ endingReason: 'aborted', status: 'partial' });
    expect(result.summary).toMatch(/^Aborted: 3 items made before the interrupt are backed by the ledger\. /);
    expect(result.verified.map((item) => item.target)).toEqual(['i1', 'i2', 'i3']);
  });

  it('a signal aborted before the run starts: a recorded run with no call and one aborted end entry', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent();
    const controller = new AbortController();
    controller.abort();
    const result = await runPlan(
      agent,
      'store one',
      async (call) => {
        await call('put_item', { id: 'x', value: 'v' });
        return { finish: { summary: 'Stored.', claims: [{ target: 'x' }] } };
      },
      { ledger, signal: controller.signal },
    );
    const entries = ledger.entries(result.runId);
    expect(toolCalls(entries)).toEqual([]);
    expect(ends(entries)).toHaveLength(1);
    expect(result).toMatchObject({ endingReason: 'aborted', status: 'failed' });
    expect(result.summary).toMatch(/^Aborted: nothing made before the interrupt is backed by the ledger\./);
    expect(result.summary).toContain('the caller aborted the run');
  });

  it('calls in flight at the abort settle within the grace; one that does not is abandoned with its entry', async () => {
    const ledger = tempLedger();
    const { agent } = itemAgent({ tools: [nap] });
    const controller = new AbortController();
    const started = Date.now();
    const result = await runPlan(
      agent,
      'nap twice',
      async (call) => {
        const quick = call('nap', { ms: 50 });
        const long = call('nap', { ms: 30_000 });
        controller.abort('interrupted by SIGTERM');
        await Promise.all([quick, long]);
        return { stop: 'napped' };
      },
      { ledger, signal: controller.signal, graceMs: 300 },
    );
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(5_000);
    const calls = toolCalls(ledger.entries(result.runId));
    expect(calls.map((entry) => [entry.outcome, (entry.data.input as { ms: number }).ms])).toEqual([
      ['ok', 50],
      ['error', 30_000],
    ]);
    expect(calls[1]?.data.error).toMatchObject({ code: 'ABORTED' });
    expect(ends(ledger.entries(result.runId))).toHaveLength(1);
    expect(result).toMatchObject({ endingReason: 'aborted' });
    expect(result.summary).toContain('interrupted by SIGTERM');
  });
});
