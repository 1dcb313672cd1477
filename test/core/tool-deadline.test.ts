// The deadline around every tool call (invokeTool's withDeadline). The tool's abort signal is
// made only when the tool reads it (issue 22: creating one costs more CPU than the rest of the
// deadline); these tests hold that a late reader, an early reader and a tool that never reads
// it all see the same abandonment as before.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFailOpen } from '../../src/core/fail-open.js';
import { invokeTool } from '../../src/core/invoke-tool.js';
import { defineTool, type ToolContext } from '../../src/core/tool.js';
import { tempLedger } from '../helpers.js';

const failOpen = createFailOpen({ logPath: '/dev/null' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recorder() {
  const ledger = tempLedger();
  return { ledger, recorder: ledger.startRun({ agent: 'deadline', task: 'deadline' }) };
}

describe('a tool call under its deadline', () => {
  it('a tool that first reads its signal after the deadline finds it already aborted', async () => {
    let seen: { aborted: boolean } | undefined;
    const late = defineTool({
      name: 'late_reader',
      description: 'Reads its signal only once it wakes.',
      inputSchema: z.object({}),
      annotations: {},
      timeoutMs: 20,
      execute: async (_input, context: ToolContext) => {
        await sleep(80);
        seen = { aborted: context.signal?.aborted === true };
        return { result: { ok: true } };
      },
    });
    const { recorder: rec } = recorder();
    const record = await invokeTool(late, {}, { recorder: rec, failOpen });
    expect(record).toMatchObject({ outcome: 'error', error: { code: 'TIMEOUT' } });
    await sleep(120);
    expect(seen).toEqual({ aborted: true });
  });

  it('a tool holding its signal from the start is told at the deadline, and the caller abort passes its reason', async () => {
    const events: string[] = [];
    const listener = defineTool({
      name: 'listener',
      description: 'Waits for its abort.',
      inputSchema: z.object({}),
      annotations: {},
      timeoutMs: 20,
      execute: (_input, context: ToolContext) =>
        new Promise<{ result: unknown }>((_resolve, reject) => {
          context.signal?.addEventListener('abort', () => {
            events.push(`aborted: ${String(context.signal?.reason)}`);
            reject(new Error('stopped'));
          });
        }),
    });
    const { recorder: rec } = recorder();
    const timedOut = await invokeTool(listener, {}, { recorder: rec, failOpen });
    expect(timedOut.error?.code).toBe('TIMEOUT');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(/^aborted: AbortError/);

    const caller = new AbortController();
    const pending = invokeTool(
      listener,
      {},
      { recorder: rec, failOpen, signal: caller.signal, timeoutMs: 10_000 },
    );
    caller.abort('user pressed ^C');
    const aborted = await pending;
    expect(aborted).toMatchObject({ outcome: 'error', error: { code: 'ABORTED' } });
    expect(events[1]).toBe('aborted: user pressed ^C');
  });

  it('an abandoned call that never read its signal still may not declare a change', async () => {
    let declared: string | undefined;
    const slowWriter = defineTool({
      name: 'slow_writer',
      description: 'Declares its change only after the deadline.',
      inputSchema: z.object({}),
      annotations: {},
      timeoutMs: 20,
      execute: async (_input, context: ToolContext) => {
        await sleep(60);
        try {
          await context.recordIntent?.({ action: 'write', resources: [{ space: 'file', key: 'a.txt' }] });
          declared = 'declared';
        } catch (error) {
          declared = (error as { code?: string }).code;
        }
        return { result: { ok: true } };
      },
    });
    const { ledger, recorder: rec } = recorder();
    const record = await invokeTool(slowWriter, {}, { recorder: rec, failOpen });
    expect(record.error?.code).toBe('TIMEOUT');
    await sleep(100);
    expect(declared).toBe('ABORTED');
    await ledger.commit();
    expect(ledger.entries(rec.runId).filter((entry) => entry.kind === 'intent')).toHaveLength(0);
  });

  it('a call made after the caller aborted is abandoned, and a tool that throws outright is an error entry', async () => {
    const quick = defineTool({
      name: 'quick',
      description: 'Answers at once.',
      inputSchema: z.object({}),
      annotations: {},
      execute: async () => ({ result: { ok: true } }),
    });
    const throwing = defineTool({
      name: 'throws_outright',
      description: 'Throws before returning a promise.',
      inputSchema: z.object({}),
      annotations: {},
      execute: (() => {
        throw new Error('broken before any await');
      }) as never,
    });
    const { ledger, recorder: rec } = recorder();
    const caller = new AbortController();
    caller.abort();
    expect(
      (await invokeTool(quick, {}, { recorder: rec, failOpen, signal: caller.signal })).error?.code,
    ).toBe('ABORTED');
    const thrown = await invokeTool(throwing, {}, { recorder: rec, failOpen });
    expect(thrown).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringContaining('broken before') },
    });
    await ledger.commit();
    expect(ledger.entries(rec.runId).filter((entry) => entry.kind === 'tool_call')).toHaveLength(2);
  });
});
