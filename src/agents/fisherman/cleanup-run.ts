import { defineAgent } from '../../core/agent/agent-definition.js';
import type { RunResult } from '../../core/agent/ending.js';
import { runPlan } from '../../core/agent/run-plan.js';
import { TallyError } from '../../core/errors.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { singular } from '../../packs/http/endpoints/resource-name.js';
import { lookupTool } from '../../packs/http/tools/lookup-tool.js';
import { requestTool } from '../../packs/http/tools/request-tool.js';
import { buildFishContext, type FishContextOptions } from './fish-context.js';

export interface Deletion {
  type: string;
  id: string;
  path: string;
  status?: number;
  /** The status a read of the path got afterwards (404 confirms the deletion). */
  confirmStatus?: number;
  ok: boolean;
}

export interface CleanupResult extends RunResult {
  cleanedRunId: string;
  deletions: Deletion[];
}

interface Created {
  type: string;
  id: string;
  path: string;
}

/** What a run created, oldest first, read from its ledger entries (successful POSTs with ids). */
export function createdBy(ledger: Ledger, runId: string): Created[] {
  const created: Created[] = [];
  for (const entry of ledger.getRun(runId).entries) {
    if (entry.kind !== 'tool_call' || entry.name !== 'request' || entry.outcome !== 'ok') continue;
    const evidence = entry.data.evidence as
      | { method?: string; path?: string; ids?: string[]; resource?: string }
      | undefined;
    if (evidence?.method !== 'POST' || !evidence.path) continue;
    for (const id of evidence.ids ?? []) {
      created.push({
        type: singular(evidence.resource ?? 'item'),
        id,
        path: `${evidence.path.split('?')[0]}/${encodeURIComponent(id)}`,
      });
    }
  }
  return created;
}

/**
 * Deletes what a run created, children first (newest first), through the same client and
 * ledger as any request, then reads each path back: 404 confirms the deletion.
 */
export async function cleanupRun(
  options: Omit<FishContextOptions, 'created' | 'allowDelete'> & { runId: string; ledger: Ledger },
): Promise<CleanupResult> {
  const created = createdBy(options.ledger, options.runId);
  if (created.length === 0) {
    throw new TallyError(
      'NOTHING_TO_CLEAN',
      `Run ${options.runId} created nothing (no successful create requests with ids in its ledger). Nothing was deleted.`,
      { runId: options.runId },
    );
  }
  const context = await buildFishContext({ ...options, created: created.map((item) => item.id) });
  const agent = defineAgent({
    name: 'fisherman-cleanup',
    instructions: 'Delete what a run created with request; confirm with lookup.',
    tools: [requestTool(context), lookupTool(context)],
  });
  const deletions: Deletion[] = [];
  const result = await runPlan(
    agent,
    `cleanup ${options.runId}`,
    async (call) => {
      for (const item of [...created].reverse()) {
        const record = await call('request', { method: 'DELETE', path: item.path });
        const status = (record.result as { status?: number } | undefined)?.status;
        const check = await call('lookup', { path: item.path });
        const confirmStatus = (check.result as { status?: number } | undefined)?.status;
        deletions.push({
          ...item,
          ...(status ? { status } : {}),
          ...(confirmStatus ? { confirmStatus } : {}),
          ok: record.outcome === 'ok' && confirmStatus === 404,
        });
      }
      const failed = deletions.filter((deletion) => !deletion.ok);
      return {
        finish: {
          summary: `Deleted ${deletions.length - failed.length} of ${deletions.length} entities created by ${options.runId}${failed.length ? `; ${failed.length} could not be confirmed deleted` : ''}.`,
          // Every deletion is claimed: those without DELETE evidence are dropped, making the run partial.
          claims: deletions.map((deletion) => ({ target: deletion.id, type: deletion.type })),
        },
      };
    },
    { ledger: options.ledger, meta: { cleans: options.runId, baseUrl: context.baseUrl } },
  );
  return { ...result, cleanedRunId: options.runId, deletions };
}
