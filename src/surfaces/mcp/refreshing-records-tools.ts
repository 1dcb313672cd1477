import { scoutTool } from '../../agents/scout/scout-tool.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import type { ToolDefinition } from '../../core/tool.js';
import { openRecordSource } from '../../packs/records/open-record-source.js';
import type { RecordSource } from '../../packs/records/record-query.js';
import { listStores } from '../../packs/records/stores.js';
import { recordsTools } from '../../packs/records/tools/records-tools.js';

/**
 * The records tools for a long-lived server. Opening the source is what checks the index
 * against the stores (new, removed and edited records), so each call opens it afresh —
 * an index opened once at start-up would answer from the start-up state forever.
 * With the session's `ledger`, the scout comes too (`scout`, without a model): each call is
 * its own scout run in that ledger, linked to the session's run.
 */
export function refreshingRecordsTools(
  root: string,
  ledger?: Ledger,
): { tools: ToolDefinition[]; close: () => void } {
  let current: RecordSource | undefined;
  const refresh = (): RecordSource => {
    current?.close();
    current = openRecordSource(root, listStores(root));
    return current;
  };
  const active = (): RecordSource => current ?? refresh();
  const source: RecordSource = {
    query: (query) => active().query(query),
    survey: (query) => active().survey(query),
    paths: () => active().paths(),
    recallCandidates: (terms) => active().recallCandidates(terms),
    rows: () => active().rows(),
    close: () => {
      current?.close();
      current = undefined;
    },
  };
  // Security: the records tools only ever dump paths a query can return (checkCatPaths).
  const tools = recordsTools({ root, source }).map(
    (tool): ToolDefinition => ({
      ...tool,
      execute: (input, context) => {
        refresh();
        return tool.execute(input, context);
      },
    }),
  );
  // The scout opens its own source per call, so it always sees the stores as they are.
  return {
    tools: [...tools, ...(ledger ? [scoutTool({ root, ledger, cwd: root })] : [])],
    close: source.close,
  };
}
