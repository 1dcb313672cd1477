import type { ContractSpec, StatedContract } from '../../core/agent/contract.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { contractProblems } from './contract-problems.js';
import { contractWords, describeContract, type FishContract } from './fish-contract.js';
import { parseFishContract } from './parse-fish-contract.js';
import { contractFromPlan, fishTypeWords, type PlanInput, planInputSchema } from './plan-input.js';

function stated(contract: FishContract): StatedContract {
  return { description: describeContract(contract), data: contract, words: contractWords(contract) };
}

/**
 * Fisherman's request contract: read by the parser where the wording allows, else stated by
 * the model with `plan` (entities, counts, parents, titles, project) before its first create,
 * cross-checked against the request's numbers, quoted titles, names and the app's type words.
 */
export function fishermanContract(scope: Scope, knownTypes: readonly string[]): ContractSpec<PlanInput> {
  return {
    fromRequest: (task) => {
      const parsed = parseFishContract(task, { knownTypes });
      return parsed ? stated(parsed) : undefined;
    },
    plan: {
      description:
        'Before any create, state what the request asks for: every kind of thing with its count, its parent (another entity of this plan, or an existing item by type and id), any quoted titles, and the project the request names. The run is checked against this plan, and the plan against the request: every number, quoted title, name and type the request states must be in it.',
      // A getter: the schema is built when the model's `plan` tool is made, not for every run.
      get inputSchema() {
        return planInputSchema();
      },
      toContract: (input) => stated(contractFromPlan(input)),
    },
    typeWords: (task) => fishTypeWords(task, knownTypes),
    // "Created 1 suite with 5 tests" is judged for tests too, though no test was claimed.
    types: knownTypes,
    check: (contract, context) => contractProblems(contract.data as FishContract, scope, context),
  };
}
