import { tool as aiTool, jsonSchema, type ToolSet } from 'ai';
import { ToolRejectedError } from '../errors.js';
import type { FailOpen } from '../fail-open.js';
import { invokeTool, toolResultForModel } from '../invoke-tool.js';
import type { RunRecorder } from '../ledger/ledger.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import type { Agent } from './agent-definition.js';
import { crossChecked, PLAN_TOOL, recordContract } from './contract.js';
import { FINISH_TOOL, STOP_TOOL, stopInput } from './finish-spec.js';
import type { GateKeeper } from './gate-keeper.js';
import { type GuardFiring, type GuardState, NUDGES } from './guard-state.js';
import type { RunState } from './run-state.js';
import { settledCalls } from './step-calls.js';
import { verifyFinish } from './verify-finish.js';

export interface RunToolsContext {
  agent: Agent;
  recorder: RunRecorder;
  state: RunState;
  guards: GuardState;
  gates: GateKeeper;
  failOpen: FailOpen;
  signal?: AbortSignal;
}

export function recordGuard(context: RunToolsContext, firing: GuardFiring): void {
  const { recorder, state } = context;
  recorder.append({ kind: 'guard', name: firing.guard, outcome: firing.action, data: { ...firing } });
  if (firing.action === 'end') {
    state.ending ??= { reason: firing.guard === 'loop' ? 'loop' : 'repeated_failure', detail: firing.detail };
  } else if (
    firing.action === 'nudge' &&
    (firing.guard === 'silence' || firing.guard === 'loop' || firing.guard === 'finish_required')
  ) {
    state.pendingNudges.push({ why: firing.guard, text: NUDGES[firing.guard] });
  }
}

function finishTool(context: RunToolsContext): ToolDefinition {
  const { agent, recorder, state } = context;
  return defineTool({
    name: FINISH_TOOL,
    description: agent.finish.description,
    inputSchema: agent.finish.inputSchema,
    annotations: { readOnly: true },
    execute: async (input) => {
      // The claims are checked against a settled world: never beside calls still running.
      const step = state.step;
      const siblings = (await settledCalls(step)).filter((call) => call.name !== FINISH_TOOL);
      if (siblings.length > 0) {
        throw new ToolRejectedError(
          'FINISH_NOT_ALONE',
          `finish was called in the same step as ${siblings.map((call) => call.name).join(', ')}; claims are checked only once every call has returned. Read their results, then call finish alone.`,
        );
      }
      const { verified, dropped, duplicates, problems } = await verifyFinish(
        agent,
        recorder,
        context.failOpen,
        input,
      );
      if (verified.length === 0) {
        const reasons = dropped.map((entry) => `"${String(entry.claim.target)}": ${entry.why}`).join('; ');
        throw new ToolRejectedError(
          'FINISH_REJECTED',
          `finish rejected: none of your claims is backed by evidence from this run${reasons ? ` (${reasons})` : ' (you claimed nothing)'}. Keep working to produce the evidence, or call stop with the reason.`,
          { dropped: dropped.length },
        );
      }
      state.ending = {
        reason: 'finished',
        finish: {
          summary: agent.finish.summaryOf(input),
          verified,
          dropped,
          duplicates,
          failed: agent.finish.failedOf?.(input) ?? [],
          ...(problems.length ? { problems } : {}),
        },
      };
      return {
        result: {
          ok: true,
          verified: verified.length,
          dropped: dropped.map((entry) => entry.why),
          ...(duplicates.length ? { duplicates: duplicates.map((entry) => entry.why) } : {}),
        },
      };
    },
  });
}

function stopTool(context: RunToolsContext): ToolDefinition {
  return defineTool({
    name: STOP_TOOL,
    description:
      'Call when the task cannot be done: give the honest, specific reason. Never substitute a different task.',
    inputSchema: stopInput(),
    annotations: { readOnly: true },
    execute: async (input) => {
      context.state.ending ??= { reason: 'stopped', detail: input.reason };
      return { result: { ok: true, stopped: true } };
    },
  });
}

/** The model states the request's structure; it becomes the run's contract until the first effect. */
function planTool(context: RunToolsContext, task: string): ToolDefinition | undefined {
  const { agent, recorder, state } = context;
  const plan = agent.contract?.plan;
  if (!plan || state.contract?.source === 'request') return undefined;
  return defineTool({
    name: PLAN_TOOL,
    description: plan.description,
    inputSchema: plan.inputSchema,
    annotations: { readOnly: true },
    execute: async (input) => {
      if (state.effectRan)
        throw new ToolRejectedError(
          'CONTRACT_FIXED',
          `The contract was fixed when the first change ran ("${state.contract?.description ?? 'none'}"); it cannot be restated now. Finish against it, or list what you could not do in finish's failed list.`,
        );
      const contract = crossChecked(plan.toContract(input, task), task, agent.contract ?? {}, 'model');
      state.contract = contract;
      recordContract(recorder, contract);
      return {
        result: {
          ok: true,
          contract: contract.description,
          ...(contract.dropped?.length
            ? {
                missing: contract.dropped,
                note: `This plan leaves out words of the request (${contract.dropped.map((word) => `"${word}"`).join(', ')}); a run on it cannot succeed. Call plan again with every count, name, quoted text and path the request states.`,
              }
            : {}),
        },
      };
    },
  });
}

/** Effectful calls wait for a stated contract when the agent asks the model for one. */
function contractRefusal(
  context: RunToolsContext,
  definition: ToolDefinition | undefined,
): ToolRejectedError | undefined {
  const { agent, state } = context;
  if (!definition || definition.annotations.readOnly || !agent.contract?.plan || state.contract)
    return undefined;
  return new ToolRejectedError(
    'PLAN_REQUIRED',
    `${definition.name} changes things, and the request's structure has not been stated yet. Call ${PLAN_TOOL} first with what the request asks for (every count, name, quoted text and path), then call ${definition.name} again.`,
  );
}

/** Runs one call the way every agent call runs: gates, the ledger, then the guards. */
async function handleCall(
  context: RunToolsContext,
  definition: ToolDefinition,
  input: unknown,
  toolCallId: string,
): Promise<unknown> {
  const { state, gates, guards } = context;
  state.handledToolCalls.add(toolCallId);
  const record = await invokeTool(definition, input, {
    recorder: context.recorder,
    failOpen: context.failOpen,
    source: 'agent',
    toolCallId,
    ...(context.signal ? { signal: context.signal } : {}),
    admit: (name) => {
      if (state.ending && name !== STOP_TOOL) {
        return new ToolRejectedError(
          'RUN_ENDED',
          `The run has already ended (${state.ending.reason}); ${name} was not run.`,
        );
      }
      const unplanned = contractRefusal(context, definition);
      if (unplanned) return unplanned;
      const decision = gates.check(name);
      if (!decision.allowed)
        return new ToolRejectedError('GATE_DENIED', decision.message ?? 'Denied by a gate.');
      if (!definition.annotations.readOnly) state.effectRan = true;
      return undefined;
    },
  });
  if (record.outcome === 'ok') gates.noteSuccess(definition.name);
  state.lastToolFailed = record.outcome !== 'ok';
  const firing = guards.observeCall(record);
  if (firing) recordGuard(context, firing);
  return toolResultForModel(record);
}

/** The agent's tools plus finish and stop, as an AI SDK tool set whose calls all go through the ledger. */
export function buildRunTools(
  context: RunToolsContext,
  task: string,
): {
  toolSet: ToolSet;
  definitions: Map<string, ToolDefinition>;
} {
  const definitions = new Map<string, ToolDefinition>();
  const plan = planTool(context, task);
  for (const definition of [
    ...context.agent.tools,
    ...(plan ? [plan] : []),
    finishTool(context),
    stopTool(context),
  ]) {
    definitions.set(definition.name, definition);
  }
  const toolSet: ToolSet = {};
  for (const definition of definitions.values()) {
    toolSet[definition.name] = aiTool({
      description: definition.description,
      // No validation here on purpose: invokeTool validates with zod so a bad input is a ledger entry.
      inputSchema: jsonSchema(context.agent.inputJsonSchema(definition)),
      execute: (input, options) => handleCall(context, definition, input, options.toolCallId),
    });
  }
  return { toolSet, definitions };
}
