import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { RunEvent, RunObserver } from '../../core/agent/run-observer.js';
import { GEN_AI, TALLY } from './gen-ai-attributes.js';

export interface TraceObserver {
  observer: RunObserver;
  /** Ends the spans of runs that never ended (a crash, an abort before `end`), marked open. */
  endOpenRuns(): void;
}

interface OpenRun {
  span: Span;
  context: Context;
  /** Entries of the run told so far: the ledger's `seq` of the latest one. */
  seq: number;
}

/** `openai.chat:gpt-4.1-mini` → provider `openai`, model `gpt-4.1-mini`. */
function splitModel(spec: string): { provider: string; model: string } {
  const colon = spec.indexOf(':');
  if (colon < 0) return { provider: '', model: spec };
  return { provider: spec.slice(0, colon).split('.')[0] ?? '', model: spec.slice(colon + 1) };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Drops undefined values: OTel attributes may not hold them. */
function attributes(values: Record<string, string | number | string[] | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * `gen_ai.tool.call.id`: the id the caller gave the call when the entry carries one, else the
 * call's own address in the ledger, `RUN#SEQ` (the `seq` column of `tally runs show RUN`):
 * unique in the run, stable, and what a reader of the trace can look up. Every entry of an
 * observed run is told in the order it was appended, so counting them gives its `seq`.
 */
function toolCallId(runId: string, seq: number, data: Record<string, unknown>): string {
  return text(data.toolCallId) ?? `${runId}#${seq}`;
}

/**
 * Turns run events into spans with the GenAI semantic conventions: `invoke_agent {agent}` per
 * run, and as its children `chat {model}` per model call and `execute_tool {tool}` per tool
 * call, timed from the ledger's durations. Guards, nudges, gates, claims and fail-opens are
 * events on the run span. Uses only the API: the caller owns the provider.
 */
export function traceObserver(tracer: Tracer): TraceObserver {
  const runs = new Map<string, OpenRun>();

  const startRun = (event: Extract<RunEvent, { type: 'run-start' }>) => {
    const model = text(event.meta.model);
    const span = tracer.startSpan(
      `invoke_agent ${event.agent}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: event.time,
        attributes: attributes({
          [GEN_AI.operationName]: 'invoke_agent',
          [GEN_AI.agentName]: event.agent,
          [TALLY.runId]: event.runId,
          [GEN_AI.requestModel]: model ? splitModel(model).model : undefined,
          [GEN_AI.conversationId]: text(event.meta.chatId),
          [TALLY.tier]: text(event.meta.tier),
        }),
      },
      // A library user's active span (if they installed a context manager) becomes the parent.
      context.active(),
    );
    runs.set(event.runId, { span, context: trace.setSpan(context.active(), span), seq: 0 });
  };

  const childSpan = (
    run: OpenRun,
    name: string,
    kind: SpanKind,
    end: number,
    durationMs: unknown,
    values: Attributes,
  ) => {
    const span = tracer.startSpan(
      name,
      { kind, startTime: end - (count(durationMs) ?? 0), attributes: values },
      run.context,
    );
    return span;
  };

  const onEntry = (run: OpenRun, event: Extract<RunEvent, { type: 'entry' }>) => {
    const { entry } = event;
    const data = entry.data;
    if (entry.kind === 'model_call') {
      const { provider, model } = splitModel(text(data.model) ?? entry.name ?? '');
      const finish = text(data.finishReason);
      childSpan(
        run,
        `chat ${model}`,
        SpanKind.CLIENT,
        event.time,
        data.durationMs,
        attributes({
          [GEN_AI.operationName]: 'chat',
          [GEN_AI.agentName]: event.agent,
          [GEN_AI.providerName]: provider || undefined,
          [GEN_AI.requestModel]: model,
          [GEN_AI.inputTokens]: count(data.inputTokens),
          [GEN_AI.outputTokens]: count(data.outputTokens),
          [GEN_AI.responseFinishReasons]: finish ? [finish] : undefined,
          [TALLY.round]: count(data.round),
          [TALLY.runId]: event.runId,
        }),
      ).end(event.time);
      return;
    }
    if (entry.kind === 'tool_call') {
      const tool = text(data.tool) ?? entry.name ?? 'unknown';
      const error = entry.data.error;
      const span = childSpan(
        run,
        `execute_tool ${tool}`,
        SpanKind.INTERNAL,
        event.time,
        data.durationMs,
        attributes({
          [GEN_AI.operationName]: 'execute_tool',
          [GEN_AI.toolName]: tool,
          [GEN_AI.toolType]: 'function',
          [GEN_AI.toolCallId]: toolCallId(event.runId, run.seq, data),
          [TALLY.toolTarget]: text(data.target),
          [TALLY.toolOutcome]: entry.outcome,
          [TALLY.toolSource]: text(data.source),
          [TALLY.runId]: event.runId,
          [GEN_AI.errorType]: entry.outcome === 'ok' ? undefined : (text(error?.code) ?? entry.outcome),
        }),
      );
      if (entry.outcome !== 'ok')
        span.setStatus({ code: SpanStatusCode.ERROR, message: text(error?.message) ?? '' });
      span.end(event.time);
      return;
    }
    if (entry.kind === 'end') {
      const status = text(data.status);
      run.span.setAttributes(
        attributes({
          [TALLY.status]: status,
          [TALLY.endingReason]: text(data.reason) ?? entry.outcome,
          [TALLY.verified]: count(data.verified),
          [TALLY.dropped]: count(data.dropped),
        }),
      );
      if (status === 'failed')
        run.span.setStatus({ code: SpanStatusCode.ERROR, message: text(data.summary) ?? '' });
      run.span.end(event.time);
      runs.delete(event.runId);
      return;
    }
    // guard, nudge, gate, claim, fail_open: moments of the run, not operations of their own.
    run.span.addEvent(
      `tally.${entry.kind}`,
      attributes({ 'tally.name': entry.name, 'tally.outcome': entry.outcome }),
      event.time,
    );
  };

  return {
    observer: (event) => {
      if (event.type === 'run-start') return startRun(event);
      if (event.type !== 'entry') return;
      const run = runs.get(event.runId);
      if (!run) return;
      run.seq += 1;
      onEntry(run, event);
    },
    endOpenRuns: () => {
      for (const run of runs.values()) {
        run.span.setAttribute(TALLY.status, 'open');
        run.span.end();
      }
      runs.clear();
    },
  };
}
