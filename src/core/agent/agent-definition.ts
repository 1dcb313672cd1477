import type { JSONSchema7 } from '@ai-sdk/provider';
import { z } from 'zod';
import { AgentConfigError, PromptLintError } from '../errors.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import type { Claim, ClaimEffect, ClaimResolver, ClaimVerifier, EvidenceView } from './claims.js';
import { verifyAgainstEffects } from './claims.js';
import { type ContractSpec, PLAN_TOOL, type RequestCheckContext } from './contract.js';
import { isConversational } from './conversational.js';
import type { VerifiedItem } from './ending.js';
import { defaultFinishSpec, FINISH_TOOL, type FinishSpec, STOP_TOOL } from './finish-spec.js';
import type { GateRule } from './gate-keeper.js';
import { type GuardSettings, resolveGuardSettings } from './guard-settings.js';
import { lintPrompt } from './prompt-lint.js';
import type { RunReview } from './run-review.js';

export interface AgentOptions {
  name: string;
  /** The system prompt. Every tool name it mentions must be registered (prompt lint). */
  instructions: string;
  tools: ToolDefinition[];
  /** Shape of `finish` and how its input becomes claims. */
  finish?: FinishSpec;
  /** Default: claims matched to this run's net effects, canonicalized by the tools' resolvers. */
  verifier?: ClaimVerifier;
  /** Effect assumed for a claim that names none (default `changed`; an agent that only creates: `created`). */
  claimEffect?: ClaimEffect;
  /** Items taken from the ledger when the model claims nothing verifiable (or never finishes). */
  itemsFromLedger?: (view: EvidenceView) => VerifiedItem[];
  /**
   * Items taken from the ledger when the run ends with neither a finish nor an answer
   * (interrupted, out of rounds, a model error): what the summary counts as made. Default
   * `itemsFromLedger`. For an agent whose finish must name its items (one that changes files), so that
   * an unbacked finish is still refused.
   */
  itemsWithoutFinish?: (view: EvidenceView) => VerifiedItem[];
  /**
   * Where the agent knows the request's structure: what the net effects lack to meet it
   * (empty when met). A non-empty answer makes a verified finish `partial`.
   */
  checkRequest?: (context: RequestCheckContext) => string[];
  /**
   * The request contract: read from the request where the wording allows, else stated by the
   * model through the `plan` tool before any effectful call; success means it was met.
   */
  contract?: ContractSpec;
  /**
   * A last look before the verdict is written (a chat agent's flags, a turn that ended on a
   * failed call): may only make the status worse, and is part of the ledger's end entry.
   */
  review?: RunReview;
  guards?: Partial<GuardSettings>;
  gates?: GateRule[];
  /** A pinned model spec (`openai:gpt-4.1-mini`); sub-agents never inherit their parent's. */
  model?: string;
  /** When false, a text-only reply ends the turn (chat agents). Default true. */
  requireFinish?: boolean;
  isConversational?: (message: string) => boolean;
  promptLint?: { allow?: string[] };
}

export type { RequestCheckContext };

/** The claim resolvers the tools bring, one per space. */
export function resolversOf(tools: readonly ToolDefinition[]): ClaimResolver[] {
  const bySpace = new Map<string, ClaimResolver>();
  for (const tool of tools)
    if (tool.claimResolver && !bySpace.has(tool.claimResolver.space))
      bySpace.set(tool.claimResolver.space, tool.claimResolver);
  return [...bySpace.values()];
}

/** Recognisable across package copies (an agent module loaded by `tally mcp --pack-module`). */
export const AGENT_MARK: unique symbol = Symbol.for('tally-harness.agent') as never;

export function isAgent(value: unknown): value is Agent {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[AGENT_MARK] === true
  );
}

export interface Agent {
  readonly [AGENT_MARK]?: true;
  readonly name: string;
  readonly instructions: string;
  readonly tools: ToolDefinition[];
  readonly finish: FinishSpec;
  readonly verifier: ClaimVerifier;
  readonly itemsFromLedger?: (view: EvidenceView) => VerifiedItem[];
  readonly itemsWithoutFinish?: (view: EvidenceView) => VerifiedItem[];
  readonly checkRequest?: (context: RequestCheckContext) => string[];
  readonly contract?: ContractSpec;
  readonly review?: RunReview;
  readonly guards: GuardSettings;
  readonly gates: GateRule[];
  readonly model?: string;
  readonly requireFinish: boolean;
  readonly isConversational: (message: string) => boolean;
  /** The JSON Schema served to models and MCP clients for a tool's input, computed once. */
  inputJsonSchema(tool: { inputSchema: ToolDefinition['inputSchema'] }): JSONSchema7;
}

function jsonSchemaCache(): Agent['inputJsonSchema'] {
  const cache = new WeakMap<object, JSONSchema7>();
  return (tool) => {
    let schema = cache.get(tool.inputSchema);
    if (!schema) {
      schema = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as JSONSchema7;
      cache.set(tool.inputSchema, schema);
    }
    return schema;
  };
}

/** Builds an agent and rejects a configuration that cannot work, before any run starts. */
export function defineAgent(given: AgentOptions): Agent {
  if (!Array.isArray(given.tools))
    throw new AgentConfigError(given.name, 'tools must be an array', 'Pass tools: [defineTool(…), …].');
  // Tools from plain JavaScript are checked (and their annotations filled in) as defineTool does.
  const options: AgentOptions = { ...given, tools: given.tools.map(checkedTool(given.name)) };
  const names = new Set<string>();
  for (const tool of options.tools) {
    if (
      tool.name === FINISH_TOOL ||
      tool.name === STOP_TOOL ||
      (options.contract?.plan && tool.name === PLAN_TOOL)
    ) {
      throw new AgentConfigError(
        options.name,
        `tool "${tool.name}" is reserved`,
        'Rename the tool; the harness adds finish and stop itself.',
      );
    }
    if (names.has(tool.name)) {
      throw new AgentConfigError(
        options.name,
        `tool "${tool.name}" is registered twice`,
        'Register each tool once.',
      );
    }
    names.add(tool.name);
  }
  const guards = resolveGuardSettings(options.name, options.guards);
  const unknown = lintPrompt(
    options.instructions,
    [...names, FINISH_TOOL, STOP_TOOL, ...(options.contract?.plan ? [PLAN_TOOL] : [])],
    options.promptLint?.allow,
  );
  if (unknown.length > 0) throw new PromptLintError(options.name, unknown);
  for (const gate of options.gates ?? []) {
    const governed = gate.kind === 'requires' ? gate.tools : [FINISH_TOOL];
    for (const tool of governed) {
      if (tool !== FINISH_TOOL && !names.has(tool)) {
        throw new AgentConfigError(
          options.name,
          `gate "${gate.name}" governs unknown tool "${tool}"`,
          'Name a registered tool in the gate.',
        );
      }
    }
  }
  return {
    [AGENT_MARK]: true,
    name: options.name,
    instructions: options.instructions,
    tools: options.tools,
    finish: options.finish ?? defaultFinishSpec,
    verifier:
      options.verifier ??
      verifyAgainstEffects({
        resolvers: resolversOf(options.tools),
        ...(options.claimEffect ? { defaultEffect: options.claimEffect } : {}),
      }),
    ...(options.itemsFromLedger ? { itemsFromLedger: options.itemsFromLedger } : {}),
    ...(options.itemsWithoutFinish ? { itemsWithoutFinish: options.itemsWithoutFinish } : {}),
    ...(options.checkRequest ? { checkRequest: options.checkRequest } : {}),
    ...(options.contract ? { contract: options.contract } : {}),
    ...(options.review ? { review: options.review } : {}),
    guards,
    gates: options.gates ?? [],
    ...(options.model ? { model: options.model } : {}),
    requireFinish: options.requireFinish ?? true,
    isConversational: options.isConversational ?? isConversational,
    inputJsonSchema: jsonSchemaCache(),
  };
}

export type { Claim };

/** `defineTool`'s check, its TypeError told as this agent's configuration error. */
function checkedTool(agent: string) {
  return (tool: ToolDefinition): ToolDefinition => {
    try {
      return defineTool(tool);
    } catch (error) {
      throw new AgentConfigError(
        agent,
        (error instanceof Error ? error.message : String(error)).replace(/\.$/, ''),
        'Define each tool with defineTool({ name, description, inputSchema, execute }).',
      );
    }
  };
}
