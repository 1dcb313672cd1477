import type { z } from 'zod';
import type { NetEffects } from '../effects.js';
import type { LedgerEntry } from '../ledger/entry.js';
import type { RunRecorder } from '../ledger/ledger.js';
import type { RunContract, VerifiedItem } from './ending.js';
import { requestWords, unaccounted } from './request-words.js';

/** What a request check sees: this run's net effects, its entries and the verified items. */
export interface RequestCheckContext {
  net: NetEffects;
  entries: LedgerEntry[];
  verified: VerifiedItem[];
}

/** Who stated a run's contract: a deterministic parser of the request, the model (`plan`), or the agent's own hook. */
export type ContractSource = RunContract['source'];

/**
 * A run's request contract: the request's structure in data, fixed before the run's first
 * effect. `success` means the net effects meet it; a contract that leaves request words out
 * (`dropped`) can never be met. One shape with what results and the ledger carry.
 */
export type RequestContract = RunContract;

/** What an agent derives a contract from, before `source` and the cross-check are added. */
export type StatedContract = Omit<RequestContract, 'source' | 'dropped'>;

/**
 * How an agent knows what was asked. `fromRequest` reads the request where the wording allows;
 * otherwise, with `plan` set, the loop requires a `plan` call (the model states the contract)
 * before any effectful call, and the stated contract is cross-checked against the request text.
 */
// biome-ignore lint/suspicious/noExplicitAny: each agent brings its own plan input type
export interface ContractSpec<Plan = any> {
  fromRequest?: (task: string) => StatedContract | undefined;
  plan?: {
    description: string;
    inputSchema: z.ZodType<Plan>;
    toContract: (input: Plan, task: string) => StatedContract;
  };
  /** Words of the request naming things the agent knows (entity types): each must be in a model's contract. */
  typeWords?: (task: string) => string[];
  /** Every entity type the agent knows (an API's collections): a finish summary's count of any of them is judged. */
  types?: readonly string[];
  /** What the net effects lack to meet the contract (empty when met). */
  check: (contract: RequestContract, context: RequestCheckContext) => string[] | Promise<string[]>;
}

export const PLAN_TOOL = 'plan';

/** The model's contract, cross-checked: every number, quoted string, path and type word of the request must appear in it. */
export function crossChecked(
  stated: StatedContract,
  task: string,
  spec: Pick<ContractSpec, 'typeWords'>,
  source: ContractSource,
): RequestContract {
  const wanted = requestWords(task, spec.typeWords?.(task) ?? []);
  const dropped = unaccounted(wanted, stated.words);
  return { ...stated, source, ...(dropped.length > 0 ? { dropped } : {}) };
}

/** Reasons a run with this contract is not `success` (empty when met). */
export async function contractProblems(
  contract: RequestContract | undefined,
  spec: ContractSpec | undefined,
  context: RequestCheckContext,
): Promise<string[]> {
  if (!contract || !spec) return [];
  const problems: string[] = [];
  if (contract.dropped?.length)
    problems.push(
      `the stated contract ("${contract.description}") leaves out words of the request: ${contract.dropped.map((word) => `"${word}"`).join(', ')}`,
    );
  try {
    problems.push(...(await spec.check(contract, context)));
  } catch (error) {
    // A check that cannot run has not shown the request met: fail closed, keep the run's end.
    problems.push(
      `the contract could not be checked: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return problems;
}

/** The ledger entry's data for a contract (also what `--json` and the report show). */
export function contractRecord(contract: RequestContract): RequestContract {
  return {
    source: contract.source,
    description: contract.description,
    data: contract.data,
    words: contract.words,
    ...(contract.dropped?.length ? { dropped: contract.dropped } : {}),
  };
}

/** Appends the contract to the run's ledger: before the first effect, or as the model restates it. */
export function recordContract(recorder: RunRecorder, contract: RequestContract): void {
  recorder.append({
    kind: 'contract',
    name: contract.source,
    outcome: contract.dropped?.length ? 'incomplete' : 'stated',
    data: contractRecord(contract),
  });
}

/** The contract read from the request, when the agent's parser can read it. */
export function contractFromRequest(
  spec: ContractSpec | undefined,
  task: string,
  onError: () => void,
): RequestContract | undefined {
  try {
    const stated = spec?.fromRequest?.(task);
    return stated ? { ...stated, source: 'request' } : undefined;
  } catch {
    // A parser that throws has not read the request: the run goes on as if it could not.
    onError();
    return undefined;
  }
}
