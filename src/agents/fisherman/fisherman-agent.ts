import { type Agent, defineAgent } from '../../core/agent/agent-definition.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { type HttpToolContext, httpTools } from '../../packs/http/tools/index.js';
import { fishermanFinish } from './fisherman-finish.js';
import { fishermanInstructions } from './fisherman-prompt.js';
import { fishermanVerifier, itemsFromWrites } from './fisherman-verifier.js';

export interface FishermanAgentOptions {
  context: HttpToolContext;
  model?: string;
  maxRounds?: number;
}

/** Fisherman for one run: HTTP tools bound to this run's client, endpoint model and scope. */
export function createFishermanAgent(options: FishermanAgentOptions): Agent {
  const { context } = options;
  const scope: Scope = context.scope;
  return defineAgent({
    name: 'fisherman',
    instructions: fishermanInstructions(context.index.endpointLines(scope), scope),
    tools: httpTools(context),
    finish: fishermanFinish,
    verifier: fishermanVerifier,
    itemsFromLedger: itemsFromWrites,
    guards: { maxRounds: options.maxRounds ?? 30, repeatedFailures: 4 },
    ...(options.model ? { model: options.model } : {}),
  });
}
