import { scoutTool } from '../../agents/scout/scout-tool.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import type { ToolDefinition } from '../../core/tool.js';
import type { RecordSource } from '../../packs/records/record-query.js';
import { recordsTools } from '../../packs/records/tools/records-tools.js';
import { watchRecordSource } from '../../packs/records/watched-records.js';

/**
 * The records tools for a long-lived server. The index is opened once and kept fresh by a
 * file-system watcher (`watchRecordSource`: events, a periodic sweep, a per-call check where
 * no watcher can be set); every call first awaits `fresh()`, so an edit made on disk before
 * the call is in its answer — without a check of every file per call.
 * With the session's `ledger`, the scout comes too (`scout`, without a model): each call is
 * its own scout run in that ledger, linked to the session's run, on the same watched index.
 */
export function refreshingRecordsTools(
  root: string,
  ledger?: Ledger,
  onFallback: (why: string) => void = (why) => process.stderr.write(`tally mcp: ${why}\n`),
): { tools: ToolDefinition[]; close: () => void } {
  const source = watchRecordSource(root, { onFallback });
  const fresh = (tool: ToolDefinition): ToolDefinition => ({
    ...tool,
    execute: async (input, context) => {
      await source.fresh();
      return tool.execute(input, context);
    },
  });
  // The scout closes the source it opened after its run; this one outlives every call.
  const sharedView: RecordSource = {
    query: (query) => source.query(query),
    survey: (query) => source.survey(query),
    paths: () => source.paths(),
    recallCandidates: (terms) => source.recallCandidates(terms),
    rows: () => source.rows(),
    skipped: () => source.skipped?.() ?? [],
    close: () => {},
  };
  // Security: the records tools only ever dump paths a query can return (checkCatPaths).
  const tools = recordsTools({ root, source }).map(fresh);
  return {
    tools: [
      ...tools,
      ...(ledger ? [fresh(scoutTool({ root, ledger, cwd: root, openSource: () => sharedView }))] : []),
    ],
    close: () => source.close(),
  };
}
