import { type Agent, defineAgent } from '../../core/agent/agent-definition.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import type { ApiSpecIndex } from '../../packs/http/openapi/api-spec-index.js';
import { type HttpToolContext, httpTools } from '../../packs/http/tools/index.js';
import { fishermanContract } from './fisherman-contract.js';
import { fishermanFinish } from './fisherman-finish.js';
import { fishermanInstructions } from './fisherman-prompt.js';
import { fishermanVerifier, itemsFromCreates } from './fisherman-verifier.js';
import { knownTypes } from './known-types.js';
import { endpointSource, listEndpointsTool } from './list-endpoints-tool.js';
import type { DataRequest } from './parse-data-request.js';

export interface FishermanAgentOptions {
  /** With `spec` when the run has OpenAPI documents (achieve mode, or both). */
  context: HttpToolContext & { spec?: ApiSpecIndex };
  /** The request's structure, when the grammar could read it: success then means it was met. */
  request?: DataRequest;
  model?: string;
  maxRounds?: number;
}

/** Fisherman for one run: HTTP tools bound to this run's client, endpoint model and scope. */
export function createFishermanAgent(options: FishermanAgentOptions): Agent {
  const { context } = options;
  const scope: Scope = context.scope;
  return defineAgent({
    name: 'fisherman',
    instructions: fishermanInstructions(scope, context.client.marker, endpointSource(context)),
    tools: [listEndpointsTool(context), ...httpTools(context)],
    finish: fishermanFinish,
    verifier: fishermanVerifier,
    itemsFromLedger: itemsFromCreates(
      options.request
        ? [options.request.type, ...(options.request.children ? [options.request.children.type] : [])]
        : undefined,
    ),
    // What was asked, as data: parsed from the request, or stated by the model with `plan`.
    contract: fishermanContract(scope, knownTypes(context)),
    guards: { maxRounds: options.maxRounds ?? 30, repeatedFailures: 4 },
    ...(options.model ? { model: options.model } : {}),
  });
}
