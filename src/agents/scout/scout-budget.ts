import { TallyError } from '../../core/errors.js';
import type { ToolDefinition } from '../../core/tool.js';
import { queryLabel } from './confirm-labels.js';

/** Tool calls per goal for the model scout: recall, up to two probes, one batch read. */
export const SCOUT_TOOL_BUDGET = 4;

export class ScoutBudgetError extends TallyError {}

export interface ScoutBudget {
  maxCalls: number;
  /** Paths the one batch read always includes (the deterministic tier's candidates). */
  alsoRead: string[];
  /** Told what each successful batch read (path and content). */
  onRead: (records: { path: string; content: string }[]) => void;
  /** Told what each successful search returned: its label (`recall`, `keyword: …`) and paths. */
  onFound?: (label: string, paths: string[]) => void;
}

/**
 * The records tools under a per-run budget: past `maxCalls` calls, or a second successful
 * `records_cat`, a call is refused before it runs (error SCOUT_TOOL_BUDGET, naming the fix:
 * finish with what was read). The one batch also reads the deterministic tier's candidates,
 * and its result says which paths were added, so the ledger shows every read for what it is.
 */
export function budgetedScoutTools(tools: ToolDefinition[], budget: ScoutBudget): ToolDefinition[] {
  const spent = { calls: 0, batches: 0 };
  return tools.map((tool) => ({
    ...tool,
    execute: async (input: unknown, context) => {
      spent.calls += 1;
      if (spent.calls > budget.maxCalls)
        throw new ScoutBudgetError(
          'SCOUT_TOOL_BUDGET',
          `The scout's budget is ${budget.maxCalls} tool calls per goal and it is spent. Call finish now with the records you read.`,
          { calls: spent.calls, maxCalls: budget.maxCalls },
        );
      if (tool.name !== 'records_cat') {
        const outcome = await tool.execute(input, context);
        if (budget.onFound) reportFound(tool.name, input, outcome.result, budget.onFound);
        return outcome;
      }
      if (spent.batches >= 1)
        throw new ScoutBudgetError(
          'SCOUT_TOOL_BUDGET',
          'The scout reads records in ONE records_cat batch, and it has read its batch. Call finish now with the records you read.',
          { batches: spent.batches },
        );
      const asked = (input as { paths: string[] }).paths;
      const added = budget.alsoRead.filter((path) => !asked.includes(path));
      const outcome = await tool.execute({ paths: [...asked, ...added] }, context);
      spent.batches += 1;
      const records = (outcome.result as { records?: { path: string; content: string }[] }).records ?? [];
      budget.onRead(records);
      return {
        ...outcome,
        result: { ...(outcome.result as object), ...(added.length > 0 ? { alsoRead: added } : {}) },
      };
    },
  }));
}

/** What a search returned, as the system saw its result: recall's record hits, a query's rows. */
function reportFound(
  toolName: string,
  input: unknown,
  result: unknown,
  onFound: (label: string, paths: string[]) => void,
): void {
  if (toolName === 'records_recall') {
    const hits = (result as { hits?: { source?: string; where?: string }[] } | undefined)?.hits ?? [];
    onFound(
      'recall',
      hits.flatMap((hit) => (hit.source === 'record' && typeof hit.where === 'string' ? [hit.where] : [])),
    );
  } else if (toolName === 'records_query') {
    const rows = (result as { records?: { path?: string }[] } | undefined)?.records ?? [];
    onFound(
      queryLabel(input as Record<string, unknown>),
      rows.flatMap((row) => (typeof row.path === 'string' ? [row.path] : [])),
    );
  }
}
