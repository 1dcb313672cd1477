import { abortDetail, afterGrace } from '../abort-grace.js';
import { errorMessage, TallyError } from '../errors.js';
import { invokeTool, type ToolCallRecord } from '../invoke-tool.js';
import type { Agent } from './agent-definition.js';
import { contractFromRequest, type RequestContract, recordContract } from './contract.js';
import type { RunResult } from './ending.js';
import { finalizeOrEnd } from './finalize-or-end.js';
import { type RecordedRunOptions, startRecordedRun } from './finalize-run.js';
import type { Ending } from './run-state.js';
import { verifyFinish } from './verify-finish.js';

/**
 * What a deterministic plan ends with: a finish input (verified like the model's), a stop,
 * or nothing to do (the world was already as asked: a success with no change to claim).
 */
export type PlanOutcome = { finish: unknown } | { stop: string; failed?: boolean } | { nothingToDo: string };

export type PlanCall = (toolName: string, input: unknown) => Promise<ToolCallRecord>;

export interface PlanOptions extends RecordedRunOptions {
  /**
   * Aborting it stops the plan: no call starts after it (`call` throws `RUN_ABORTED`); calls
   * in flight get `graceMs` to settle, then are abandoned with their entries; the run ends
   * `aborted` with what it made before.
   */
  signal?: AbortSignal;
  /** Default 5 s. */
  graceMs?: number;
}

/**
 * Runs a deterministic plan (no model) as a recorded run: every call goes through the same
 * tools and ledger as a model's, and the finish goes through the same verifier.
 */
export async function runPlan(
  agent: Agent,
  task: string,
  plan: (call: PlanCall) => Promise<PlanOutcome>,
  options: PlanOptions,
): Promise<RunResult> {
  const { recorder, counts, failOpen } = startRecordedRun(agent, task, options, { tier: 'deterministic' });
  // A plan runs only on a request its parser read, so its contract is the request's, stated first.
  const contract: RequestContract | undefined = contractFromRequest(agent.contract, task, () =>
    failOpen('contract', 'contract-threw', recorder.runId),
  );
  if (contract) recordContract(recorder, contract);
  const tools = new Map(agent.tools.map((tool) => [tool.name, tool]));
  const { signal } = options;
  const abandon = afterGrace(signal, options.graceMs);
  let lastFailed = false;
  const call: PlanCall = async (toolName, input) => {
    const tool = tools.get(toolName);
    if (!tool)
      throw new TypeError(`The plan called "${toolName}", which agent "${agent.name}" does not have.`);
    if (signal?.aborted)
      throw new TallyError('RUN_ABORTED', `${toolName} was not started: ${abortDetail(signal)}.`);
    const record = await invokeTool(tool, input, {
      recorder,
      failOpen,
      source: 'plan',
      ...(abandon.signal ? { signal: abandon.signal } : {}),
    });
    lastFailed = record.outcome !== 'ok';
    return record;
  };
  let ending: Ending;
  try {
    const outcome = await plan(call);
    if ('finish' in outcome) {
      const { verified, dropped, duplicates, problems } = await verifyFinish(
        agent,
        recorder,
        failOpen,
        outcome.finish,
      );
      ending =
        verified.length > 0
          ? {
              reason: 'finished',
              finish: {
                summary: agent.finish.summaryOf(outcome.finish),
                verified,
                dropped,
                duplicates,
                failed: agent.finish.failedOf?.(outcome.finish) ?? [],
                ...(problems.length ? { problems } : {}),
              },
            }
          : { reason: 'stopped', detail: 'the plan finished but nothing it claimed is backed by evidence' };
    } else if ('nothingToDo' in outcome) {
      ending = { reason: 'finished', noChange: outcome.nothingToDo };
    } else {
      ending = { reason: outcome.failed || lastFailed ? 'tool_failure' : 'stopped', detail: outcome.stop };
    }
  } catch (error) {
    ending = { reason: 'aborted', detail: `the plan threw: ${errorMessage(error)}` };
  } finally {
    abandon.dispose();
  }
  // An abort ends the run as aborted, whatever the plan made of it.
  if (signal?.aborted) ending = { reason: 'aborted', detail: abortDetail(signal), interrupted: true };
  return finalizeOrEnd({
    agent,
    recorder,
    ending,
    lastText: '',
    counts,
    failOpen,
    ...(contract ? { contract } : {}),
  });
}
