import type { LanguageModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';
import type { Effect } from '../effects.js';
import type { Ledger } from '../ledger/ledger.js';
import { definePack, type Pack, type PackContext, type PackOptions } from '../pack.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import type { Agent } from './agent-definition.js';
import { runAgent } from './run-agent.js';

export interface AgentToolOptions {
  ledger: Ledger;
  /** The sub-run's model; else the agent's pin, else TALLY_MODEL (never the caller's). */
  model?: LanguageModelV3 | string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

const toolName = (agent: string) =>
  `run_${agent
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;

/**
 * Any agent as one tool (`run_<name>`): a call runs the agent on a task as its own run in the
 * caller's ledger (meta `parentRunId`), and the sub-run's verified items become this call's
 * effects, so what the caller may claim rests on the sub-run's evidence, never on its summary.
 */
export function agentTool(agent: Agent, options: AgentToolOptions): ToolDefinition {
  return defineTool({
    name: toolName(agent.name),
    description: `Run the "${agent.name}" agent on a task, as its own verified run. ${agent.instructions.split('\n')[0]?.slice(0, 300) ?? ''}`,
    inputSchema: z.object({ task: z.string().min(1).describe('What the agent should do, in words.') }),
    annotations: {},
    target: (input) => `${agent.name}: ${input.task.replace(/\s+/g, ' ').trim().slice(0, 120)}`,
    timeoutMs: options.timeoutMs ?? 600_000,
    execute: async ({ task }, context) => {
      const result = await runAgent(agent, task, {
        ledger: options.ledger,
        ...(options.model ? { model: options.model } : {}),
        ...(options.env ? { env: options.env } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
        meta: { parentRunId: context.runId, calledAs: 'tool' },
      });
      const effects: Effect[] = result.verified.flatMap((item) =>
        typeof item.space === 'string' && typeof item.resource === 'string' && typeof item.effect === 'string'
          ? [
              {
                kind: item.effect as Effect['kind'],
                space: item.space,
                key: item.resource,
                ...(item.target ? { id: item.target } : {}),
                ...(item.type ? { type: item.type } : {}),
                ...(item.title ? { observed: { title: item.title } } : {}),
              },
            ]
          : [],
      );
      return {
        // A sub-run that did not succeed is this call's failure (classified `ok: false`).
        result: {
          ok: result.status === 'success',
          runId: result.runId,
          status: result.status,
          summary: result.summary,
          verified: result.verified,
          dropped: result.dropped,
          unmet: result.unmet,
        },
        evidence: { via: `${agent.name} run ${result.runId} (${result.status})`, effects },
      };
    },
  });
}

/**
 * An agent as a pack a surface can serve (`tally mcp --packs <name>`): its tool runs the agent
 * in the session's ledger. Pass a function to build the agent per session from the pack's flags
 * (its tools need a database, a root).
 */
/** A pack that serves one agent; `agent(context)` builds the agent itself (`tally agent` runs it directly). */
export interface AgentPack extends Pack {
  agent(context: PackContext): Promise<Agent>;
}

export function isAgentPack(value: Pack): value is AgentPack {
  return typeof (value as Partial<AgentPack>).agent === 'function';
}

export function agentPack(
  agent: Agent | ((context: PackContext) => Agent | Promise<Agent>),
  options: Partial<Omit<PackOptions, 'tools'>> & { name?: string } = {},
): AgentPack {
  const name = options.name ?? (typeof agent === 'function' ? undefined : agent.name.toLowerCase());
  if (!name) throw new TypeError('agentPack(build) needs { name }: the name --packs serves it by.');
  const build = async (context: PackContext): Promise<Agent> =>
    typeof agent === 'function' ? await agent(context) : agent;
  const pack = definePack({
    description:
      typeof agent === 'function'
        ? `The ${name} agent.`
        : `The ${agent.name} agent: ${agent.instructions.slice(0, 200)}`,
    ...options,
    name,
    tools: async (context) => {
      if (!context.ledger)
        throw new TypeError(`The ${name} agent needs the session's ledger to record its runs.`);
      return [agentTool(await build(context), { ledger: context.ledger })];
    },
  });
  return Object.freeze({ ...pack, agent: build });
}
