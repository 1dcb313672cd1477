import { existsSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/core/agent/run-agent.js';
import { withRunObserver } from '../../src/core/agent/run-observer.js';
import { createFailOpen } from '../../src/core/fail-open.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { startTelemetry } from '../../src/surfaces/telemetry/start-telemetry.js';
import { telemetryEnabled } from '../../src/surfaces/telemetry/telemetry-enabled.js';
import { callTool, scriptedModel } from '../../src/testing/scripted-model.js';
import { itemAgent } from '../core/agent/fixtures.js';
import { runTally, tempDir, tempLedger } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';
import { type ReceivedSpan, startOtlpReceiver } from './otel-receiver.js';

const named = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);

describe('OpenTelemetry export', () => {
  it('is off unless the standard variables name an OTLP exporter or endpoint', async () => {
    expect(telemetryEnabled({})).toBe(false);
    expect(telemetryEnabled({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(telemetryEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(telemetryEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(
      true,
    );
    expect(telemetryEnabled({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(
      false,
    );
    expect(telemetryEnabled({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false);
    expect(await startTelemetry({ env: {} })).toBeUndefined();
  });

  it('a scripted-model run through the library: invoke_agent with chat and execute_tool children', async () => {
    const receiver = await startOtlpReceiver();
    const telemetry = await startTelemetry({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    if (!telemetry) throw new Error('telemetry did not start');
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('put_item', { id: 'a1', value: 'x' }, 'Storing a1.'),
      callTool('get_item', { id: 'nope' }),
      callTool('finish', { summary: 'Stored a1.', claims: [{ target: 'a1', type: 'item' }] }),
    ]);
    const result = await withRunObserver(telemetry.observer, () =>
      runAgent(agent, 'Store item a1', { ledger, model }),
    );
    await telemetry.shutdown();
    model.assertComplete();

    const spans = receiver.spans;
    expect(receiver.requests.every((request) => request.path === '/v1/traces')).toBe(true);
    const [run] = named(spans, 'invoke_agent items');
    expect(run?.parentSpanId).toBeUndefined();
    expect(run?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'items',
      'tally.run.id': result.runId,
      'tally.status': 'success',
      'tally.ending_reason': 'finished',
    });
    expect(run?.resource['service.name']).toBe('tally');

    const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats).toHaveLength(3);
    for (const chat of chats) {
      expect(chat.name).toMatch(/^chat /);
      expect(chat.attributes['gen_ai.request.model']).toEqual(expect.any(String));
      expect(chat.attributes['gen_ai.usage.input_tokens']).toEqual(expect.any(Number));
      expect(chat.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
    }
    const tools = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool');
    expect(tools.map((span) => span.name)).toEqual([
      'execute_tool put_item',
      'execute_tool get_item',
      'execute_tool finish',
    ]);
    expect(tools[0]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'put_item',
      'tally.tool.target': 'items/a1',
      'tally.tool.outcome': 'ok',
    });
    // gen_ai.tool.call.id is the model's own id for the call (kept in its ledger entry), so a
    // trace leads to the very entry `tally runs show RUN` prints: distinct per call, the right one.
    const callIds = tools.map((span) => span.attributes['gen_ai.tool.call.id']);
    const toolEntries = ledger.entries(result.runId).filter((entry) => entry.kind === 'tool_call');
    expect(callIds).toEqual(toolEntries.map((entry) => entry.data.toolCallId));
    for (const id of callIds) expect(id).toEqual(expect.stringMatching(/^(?!.*#\d+$).+/));
    expect(toolEntries.map((entry) => entry.name)).toEqual(['put_item', 'get_item', 'finish']);
    expect(new Set(callIds).size).toBe(3);
    // A failed call is an error span with the error's code as error.type.
    expect(tools[1]?.status?.code).toBe(2);
    expect(tools[1]?.attributes['error.type']).toBe('ITEM_NOT_FOUND');
    // Parent/child: every model and tool span is a child of the run span, in its trace.
    for (const child of [...chats, ...tools]) {
      expect(child.parentSpanId).toBe(run?.spanId);
      expect(child.traceId).toBe(run?.traceId);
    }
    // The claim is a moment of the run, not a span.
    expect(run?.events?.map((event) => event.name)).toContain('tally.claim');
  });

  it('tally fish with OTEL_EXPORTER_OTLP_ENDPOINT exports the run and its tool calls, flushed before exit', async () => {
    const receiver = await startOtlpReceiver();
    const { app } = await demoApp();
    const cwd = tempDir();
    const fish = await runTally(
      [
        'fish',
        '1 suite',
        '--captures',
        BUNDLED_HAR,
        '--base-url',
        app.url,
        '--scope',
        '/projects/alpha-shop',
        '--login',
        'demo',
        '--json',
      ],
      { cwd, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'tally-under-test' } },
    );
    expect(fish.code).toBe(0);
    const result = JSON.parse(fish.stdout) as { runId: string };
    const [run] = named(receiver.spans, 'invoke_agent fisherman');
    expect(run?.attributes).toMatchObject({
      'gen_ai.agent.name': 'fisherman',
      'tally.run.id': result.runId,
      'tally.status': 'success',
      'tally.ending_reason': 'finished',
      'tally.tier': 'deterministic',
    });
    expect(run?.resource['service.name']).toBe('tally-under-test');
    const tools = receiver.spans.filter(
      (span) => span.attributes['gen_ai.operation.name'] === 'execute_tool',
    );
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.map((span) => span.attributes['gen_ai.tool.name'])).toContain('request');
    for (const tool of tools) expect(tool.parentSpanId).toBe(run?.spanId);
    // Parallel creates (--concurrency 2) still get each the id of its own ledger entry.
    const ledger = Ledger.open(join(cwd, '.tally', 'ledger.db'), { readonly: true });
    const entries = ledger.entries(result.runId).filter((entry) => entry.kind === 'tool_call');
    ledger.close();
    const byId = new Map(entries.map((entry) => [`${result.runId}#${entry.seq}`, entry]));
    expect(tools).toHaveLength(entries.length);
    for (const tool of tools) {
      const entry = byId.get(String(tool.attributes['gen_ai.tool.call.id']));
      expect(entry?.name).toBe(tool.attributes['gen_ai.tool.name']);
      expect(entry?.data.target).toBe(tool.attributes['tally.tool.target']);
    }
    expect(new Set(tools.map((tool) => tool.attributes['gen_ai.tool.call.id'])).size).toBe(tools.length);
  });

  it('a collector that refuses the export fails open: the run succeeds, the fail-open log says telemetry-unavailable', async () => {
    const receiver = await startOtlpReceiver({ status: 400 });
    const { app } = await demoApp();
    const cwd = tempDir();
    const fish = await runTally(
      [
        'fish',
        '1 suite',
        '--captures',
        BUNDLED_HAR,
        '--base-url',
        app.url,
        '--scope',
        '/projects/alpha-shop',
        '--login',
        'demo',
      ],
      {
        cwd,
        env: {
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        },
      },
    );
    expect(fish.code).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(fish.stderr).toContain('traces could not be exported');
    expect(fish.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const log = join(cwd, '.tally', 'fail-open.jsonl');
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, 'utf8')).toContain('"why":"telemetry-unavailable"');
  });

  it('a collector that is down (nothing listens) costs no export: shutdown does not wait out the timeout', async () => {
    // A port that was just free: connections to it are refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const log = join(tempDir(), 'fail-open.jsonl');
    const warnings: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      warnings.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    let tookMs: number;
    try {
      const telemetry = await startTelemetry({
        // A user's long timeout: the exporter would retry a refused connection for all of it.
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_TIMEOUT: '10000' },
        failOpen: createFailOpen({ logPath: log }),
      });
      const { agent } = itemAgent();
      const model = scriptedModel([callTool('stop', { reason: 'nothing to do' })]);
      await runAgent(agent, 'Nothing', {
        ledger: tempLedger(),
        model,
        ...(telemetry ? { onEvent: telemetry.observer } : {}),
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      await telemetry?.shutdown();
      tookMs = performance.now() - started;
    } finally {
      process.stderr.write = write;
    }
    // Loose hang guard: before the probe this waited out the 3 s shutdown bound.
    expect(tookMs).toBeLessThan(1_500);
    expect(warnings.join('')).toBe(
      `tally: traces could not be exported to http://127.0.0.1:${port}/v1/traces (connect ECONNREFUSED 127.0.0.1:${port}); runs are still recorded in the ledger. Start the collector, fix OTEL_EXPORTER_OTLP_ENDPOINT, or unset OTEL_TRACES_EXPORTER.\n`,
    );
    expect(readFileSync(log, 'utf8')).toContain('telemetry-unavailable');
  });

  it('library users pass a fail-open recorder of their own', async () => {
    const receiver = await startOtlpReceiver({ status: 400 });
    const log = join(tempDir(), 'fail-open.jsonl');
    const telemetry = await startTelemetry({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      failOpen: createFailOpen({ logPath: log }),
    });
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([callTool('stop', { reason: 'nothing to do' })]);
    await runAgent(agent, 'Nothing', {
      ledger,
      model,
      ...(telemetry ? { onEvent: telemetry.observer } : {}),
    });
    await telemetry?.shutdown();
    expect(readFileSync(log, 'utf8')).toContain('telemetry-unavailable');
    expect(dirname(log)).not.toBe(dirname(ledger.path));
  });
});
