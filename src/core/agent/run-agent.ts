import type { LanguageModelV3 } from '@ai-sdk/provider';
import { type ModelMessage, type StepResult, stepCountIs, streamText, type ToolSet } from 'ai';
import { abortDetail } from '../abort-grace.js';
import { errorMessage, ModelNotConfiguredError } from '../errors.js';
import type { Ledger, RunRecorder } from '../ledger/ledger.js';
import { resolveModel, selectModelSpec } from '../models/resolve-model.js';
import type { Agent } from './agent-definition.js';
import { buildRunTools, type RunToolsContext, recordGuard } from './build-run-tools.js';
import { contractFromRequest, PLAN_TOOL, recordContract } from './contract.js';
import type { RunResult } from './ending.js';
import { finalizeOrEnd } from './finalize-or-end.js';
import { startRecordedRun } from './finalize-run.js';
import { GateKeeper } from './gate-keeper.js';
import { GuardState } from './guard-state.js';
import { recordingModel } from './recording-model.js';
import type { RunObserver } from './run-observer.js';
import { newRunState, type RunState, withInjected } from './run-state.js';

export interface RunAgentOptions {
  ledger: Ledger;
  /** A model object, or a spec such as `openai:gpt-4.1-mini`. Wins over the agent's pin and TALLY_MODEL. */
  model?: LanguageModelV3 | string;
  env?: NodeJS.ProcessEnv;
  /** Fail-open log; defaults to `fail-open.jsonl` beside the ledger. */
  failOpenLog?: string;
  signal?: AbortSignal;
  maxRetries?: number;
  meta?: Record<string, unknown>;
  /** Told about the run as it happens (progress, tracing); see `withRunObserver` for runs started deeper. */
  onEvent?: RunObserver;
}

async function chooseModel(agent: Agent, options: RunAgentOptions): Promise<LanguageModelV3> {
  if (options.model && typeof options.model !== 'string') return options.model;
  const spec = selectModelSpec(agent, options.model, options.env ?? process.env);
  if (!spec) throw new ModelNotConfiguredError(agent.name);
  return resolveModel(spec, options.env ?? process.env);
}

function recordStep(context: RunToolsContext, step: StepResult<ToolSet>, toolNames: Set<string>): void {
  const { recorder, state, guards } = context;
  // Calls the SDK could not route to a tool (an unknown name, arguments that are not JSON)
  // never reached invokeTool: record them here, each with the right reason.
  for (const part of step.content) {
    if (part.type === 'tool-error' && !state.handledToolCalls.has(part.toolCallId)) {
      state.handledToolCalls.add(part.toolCallId);
      const known = toolNames.has(part.toolName);
      recorder.append({
        kind: 'tool_call',
        name: part.toolName,
        outcome: 'rejected',
        data: {
          tool: part.toolName,
          target: part.toolName,
          input: part.input,
          error: known
            ? {
                code: 'INVALID_INPUT',
                message: `The arguments for ${part.toolName} could not be read (${errorMessage(part.error)}). Call it again with a JSON object that matches its schema.`,
              }
            : { code: 'UNKNOWN_TOOL', message: errorMessage(part.error) },
          durationMs: 0,
          source: 'agent',
        },
      });
      state.lastToolFailed = true;
      const firing = guards.observeCall({
        tool: part.toolName,
        target: part.toolName,
        input: part.input,
        outcome: 'rejected',
        durationMs: 0,
      });
      if (firing) recordGuard(context, firing);
    }
  }
  const text = step.text.trim();
  if (text) state.lastText = text;
  const firing = guards.observeStep(text.length > 0, step.toolCalls.length);
  if (firing) recordGuard(context, firing);
}

/** What the loop reads of one segment, as `generateText` returned it. */
interface Segment {
  steps: StepResult<ToolSet>[];
  response: { messages: ModelMessage[] };
}

/**
 * One segment of the loop through `streamText`, settled as `generateText` settles: with the
 * steps once the stream is drained, or with the error that ended it — a call that failed
 * after its retries, or the caller's abort — so the endings stay what they were.
 */
async function streamSegment(settings: Parameters<typeof streamText<ToolSet>>[0]): Promise<Segment> {
  // The stream carries errors as parts, read below; the default handler would also print them.
  const result = streamText({ ...settings, onError: () => undefined });
  for await (const part of result.fullStream) {
    // Stop at the first error: generateText would not have gone on to another step.
    if (part.type === 'error') throw part.error;
    if (part.type === 'abort') throw settings.abortSignal?.reason ?? new Error('the caller aborted the run');
  }
  const [steps, response] = await Promise.all([result.steps, result.response]);
  return { steps, response };
}

function injectNudges(recorder: RunRecorder, state: RunState, messageCount: number): void {
  for (const nudge of state.pendingNudges) {
    recorder.append({ kind: 'nudge', name: nudge.why, data: { why: nudge.why, text: nudge.text } });
    state.injected.push({ index: messageCount, message: { role: 'user', content: nudge.text } });
  }
  state.pendingNudges = [];
}

/**
 * Runs an agent on a task. Every model step and tool call lands in the ledger; the guards
 * and gates are enforced by the harness; the run always ends with a reason and a summary.
 */
export async function runAgent(agent: Agent, task: string, options: RunAgentOptions): Promise<RunResult> {
  const model = await chooseModel(agent, options);
  const { recorder, counts, failOpen, emit } = startRecordedRun(agent, task, options, {
    model: `${model.provider}:${model.modelId}`,
  });
  const state = newRunState();
  const stated = contractFromRequest(agent.contract, task, () =>
    failOpen('contract', 'contract-threw', recorder.runId),
  );
  if (stated) {
    state.contract = stated;
    recordContract(recorder, stated);
  }
  // Observed, the text streams in as the model writes it; unobserved, nobody would see it.
  const tracedModel = recordingModel(
    model,
    recorder,
    state,
    emit
      ? {
          onText: (text) =>
            emit({ type: 'model-text', runId: recorder.runId, agent: agent.name, text, time: Date.now() }),
          onTextDelta: (delta) =>
            emit({
              type: 'model-text-delta',
              runId: recorder.runId,
              agent: agent.name,
              delta,
              time: Date.now(),
            }),
        }
      : {},
  );
  const toolNames = new Set([
    ...agent.tools.map((tool) => tool.name),
    'finish',
    'stop',
    ...(agent.contract?.plan && !stated ? [PLAN_TOOL] : []),
  ]);
  const context: RunToolsContext = {
    agent,
    recorder,
    state,
    guards: new GuardState(agent.guards),
    gates: new GateKeeper(agent.gates, toolNames, recorder, failOpen),
    failOpen,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const { toolSet } = buildRunTools(context, task);
  const conversational = agent.isConversational(task);
  if (conversational) {
    recordGuard(context, {
      guard: 'conversational_first_turn',
      action: 'no_tools',
      detail: 'the opening message is conversational; round 1 runs without tools',
      preview: task.length > 120 ? `${task.slice(0, 120)}…` : task,
    });
  }
  const closing = () => ({
    agent,
    recorder,
    ending: state.ending,
    lastText: state.lastText,
    counts,
    failOpen,
    ...(state.contract ? { contract: state.contract } : {}),
  });
  let messages: ModelMessage[] = [{ role: 'user', content: task }];
  let finishNudged = false;
  try {
    while (!state.ending) {
      if (options.signal?.aborted) {
        state.ending = { reason: 'aborted', detail: abortDetail(options.signal), interrupted: true };
        break;
      }
      const remaining = agent.guards.maxRounds - state.rounds;
      if (remaining <= 0) {
        state.ending = { reason: 'round_cap', detail: `${agent.guards.maxRounds} rounds` };
        break;
      }
      const firstRound = state.rounds === 0;
      const segmentStart = messages;
      let result: Segment;
      try {
        result = await streamSegment({
          model: tracedModel,
          system: agent.instructions,
          messages: segmentStart,
          tools: toolSet,
          stopWhen: [stepCountIs(remaining), () => state.ending !== undefined],
          maxRetries: options.maxRetries ?? 2,
          ...(options.signal ? { abortSignal: options.signal } : {}),
          prepareStep: ({ stepNumber, messages: stepMessages }) => {
            injectNudges(recorder, state, stepMessages.length);
            const noTools = conversational && firstRound && stepNumber === 0;
            return {
              ...(state.injected.length > 0 ? { messages: withInjected(stepMessages, state.injected) } : {}),
              ...(noTools ? { activeTools: [] } : {}),
            };
          },
          onStepFinish: (step) => recordStep(context, step, toolNames),
        });
      } catch (error) {
        state.ending = options.signal?.aborted
          ? { reason: 'aborted', detail: abortDetail(options.signal), interrupted: true }
          : { reason: 'model_error', detail: recorder.redactor.redactText(errorMessage(error)) };
        break;
      }
      messages = withInjected([...segmentStart, ...result.response.messages], state.injected);
      state.injected = [];
      if (state.ending) break;
      const last = result.steps.at(-1);
      if (!last || last.toolCalls.length > 0) continue; // tools not executed (e.g. length cut): next segment
      const text = last.text.trim();
      if (!text) {
        state.ending = { reason: 'no_text', detail: `finish reason ${last.finishReason}` };
      } else if ((conversational && firstRound && result.steps.length === 1) || !agent.requireFinish) {
        state.ending = { reason: 'finished', answer: text };
      } else if (!finishNudged) {
        finishNudged = true;
        recordGuard(context, {
          guard: 'finish_required',
          action: 'nudge',
          detail: 'the model ended its turn without finish or stop',
        });
        injectNudges(recorder, state, messages.length);
        messages = withInjected(messages, state.injected);
        state.injected = [];
      } else {
        state.ending = state.lastToolFailed
          ? { reason: 'tool_failure', detail: 'the last tool call failed and the model ended its turn' }
          : {
              reason: 'stopped',
              detail: `the model ended its turn without calling finish: "${text.slice(0, 200)}"`,
            };
      }
    }
  } catch (error) {
    state.ending ??= { reason: 'aborted', detail: `internal error: ${errorMessage(error)}` };
    await finalizeOrEnd(closing());
    throw error;
  }
  return finalizeOrEnd(closing());
}
