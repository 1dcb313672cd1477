import { tool as aiTool, jsonSchema, type ToolSet } from 'ai';
import { ToolRejectedError } from '../errors.js';
import type { FailOpen } from '../fail-open.js';
import { invokeTool, toolResultForModel } from '../invoke-tool.js';
import type { RunRecorder } from '../ledger/ledger.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import type { Agent } from './agent-definition.js';
import { FINISH_TOOL, STOP_TOOL, stopInput } from './finish-spec.js';
import type { GateKeeper } from './gate-keeper.js';
import { type GuardFiring, type GuardState, NUDGES } from './guard-state.js';
import type { RunState } from './run-state.js';
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
      const { verified, dropped, duplicates } = await verifyFinish(agent, recorder, context.failOpen, input);
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
    inputSchema: stopInput,
    annotations: { readOnly: true },
    execute: async (input) => {
      context.state.ending ??= { reason: 'stopped', detail: input.reason };
      return { result: { ok: true, stopped: true } };
    },
  });
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
      const decision = gates.check(name);
      return decision.allowed
        ? undefined
        : new ToolRejectedError('GATE_DENIED', decision.message ?? 'Denied by a gate.');
    },
  });
  if (record.outcome === 'ok') gates.noteSuccess(definition.name);
  state.lastToolFailed = record.outcome !== 'ok';
  const firing = guards.observeCall(record);
  if (firing) recordGuard(context, firing);
  return toolResultForModel(record);
}

/** The agent's tools plus finish and stop, as an AI SDK tool set whose calls all go through the ledger. */
export function buildRunTools(context: RunToolsContext): {
  toolSet: ToolSet;
  definitions: Map<string, ToolDefinition>;
} {
  const definitions = new Map<string, ToolDefinition>();
  for (const definition of [...context.agent.tools, finishTool(context), stopTool(context)]) {
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
