import { defineAgent } from '../../core/agent/agent-definition.js';
import type { RunResult, VerifiedItem } from '../../core/agent/ending.js';
import { runPlan } from '../../core/agent/run-plan.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { lookupTool } from '../../packs/http/tools/lookup-tool.js';
import { buildFishContext, type FishContextOptions } from './fish-context.js';

/** One verified item read back through the API after its run. */
export interface ReadBack {
  type: string;
  id: string;
  path: string;
  title: string;
  via: string;
  /** Status of the GET; undefined when no response came. */
  status?: number;
  /** 200, and the body names the same id and title the run verified. */
  confirmed: boolean;
}

export interface ReadBackResult extends RunResult {
  readsBack: string;
  readBacks: ReadBack[];
}

const bodyData = (result: unknown): { id?: unknown; title?: unknown } | undefined => {
  const body = (result as { body?: unknown } | undefined)?.body;
  if (!body || typeof body !== 'object') return undefined;
  // `{data: {...}}` (the demo app, many JSON APIs) or the item itself.
  const data = (body as { data?: unknown }).data;
  return (data && typeof data === 'object' ? data : body) as { id?: unknown; title?: unknown };
};

/**
 * Reads every item a run verified back through the API, as a recorded run of its own (a
 * `lookup` per item, in the same ledger, `meta.readsBack` naming the run it checks): the proof
 * `tally demo` shows is evidence `tally runs show` and `tally report` show too, not output
 * made outside any run. Nothing is created, so the run ends `finished` with no change when
 * every item reads back, else `stopped` naming those that did not.
 */
export async function readBackRun(
  options: Omit<FishContextOptions, 'created' | 'allowDelete' | 'markedBy'> & {
    runId: string;
    ledger: Ledger;
    items: readonly VerifiedItem[];
    /** Aborts the read-back (Ctrl-C): no new lookup starts, and the run ends `aborted`. */
    signal?: AbortSignal;
    /** How long lookups in flight at the abort get to settle. */
    graceMs?: number;
  },
): Promise<ReadBackResult> {
  const paths = options.items.map((item) => String(item.resource ?? item.target));
  const context = await buildFishContext({ ...options, created: paths });
  const agent = defineAgent({
    name: 'fisherman-read-back',
    instructions: 'Read each item a run verified back through the API with lookup.',
    tools: [lookupTool(context)],
  });
  const readBacks: ReadBack[] = [];
  const result = await options.ledger.withKnownSecrets(context.knownSecrets, () =>
    runPlan(
      agent,
      `read back ${options.runId}`,
      async (call) => {
        for (const [index, item] of options.items.entries()) {
          const path = paths[index] as string;
          const read = await call('lookup', { path });
          const status = (read.result as { status?: number } | undefined)?.status;
          const data = bodyData(read.result);
          readBacks.push({
            type: String(item.type ?? 'item'),
            id: item.target,
            path,
            title: typeof data?.title === 'string' ? data.title : '',
            via: item.via,
            ...(status !== undefined ? { status } : {}),
            confirmed: status === 200 && String(data?.id) === item.target && data?.title === item.title,
          });
        }
        const missing = readBacks.filter((readBack) => !readBack.confirmed);
        const summary = `Read back ${readBacks.length - missing.length} of ${readBacks.length} items ${options.runId} verified, through the API.`;
        if (missing.length === 0) return { nothingToDo: summary };
        return {
          stop: `${summary} Not confirmed: ${missing
            .slice(0, 3)
            .map((readBack) => `${readBack.path} (GET ${readBack.status ?? 'no answer'})`)
            .join('; ')}${missing.length > 3 ? `; and ${missing.length - 3} more` : ''}.`,
          failed: true,
        };
      },
      {
        ledger: options.ledger,
        meta: { readsBack: options.runId, baseUrl: context.baseUrl },
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
      },
    ),
  );
  return { ...result, readsBack: options.runId, readBacks };
}
