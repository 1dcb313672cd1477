import { defineAgent } from '../../core/agent/agent-definition.js';
import type { RunResult } from '../../core/agent/ending.js';
import { runPlan } from '../../core/agent/run-plan.js';
import { createdResources, netEffects } from '../../core/effects.js';
import { TallyError } from '../../core/errors.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { lookupTool } from '../../packs/http/tools/lookup-tool.js';
import { requestTool } from '../../packs/http/tools/request-tool.js';
import { buildFishContext, type FishContextOptions } from './fish-context.js';

export type DeletionOutcome = 'deleted' | 'already-gone' | 'not-confirmed' | 'failed';

export interface Deletion {
  type: string;
  id: string;
  /** The resource URL path the run created, exactly what is deleted. */
  path: string;
  outcome: DeletionOutcome;
  /** Status of the read before the DELETE, of the DELETE, and of the read after it. */
  beforeStatus?: number;
  status?: number;
  confirmStatus?: number;
  /** True when the resource is gone (deleted now and confirmed, or already gone). */
  ok: boolean;
  why?: string;
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

const GONE = new Set([404, 410]);

/** What a run created and still had at its end (net `created` effects), oldest first. */
export function createdBy(ledger: Ledger, runId: string): Created[] {
  return createdResources(netEffects(ledger.getRun(runId).entries))
    .filter((net) => net.space === 'http')
    .map((net) => ({ type: net.type ?? 'item', id: net.id ?? net.key, path: net.key }));
}

/**
 * Resource paths an earlier cleanup of the same run deleted AND confirmed: its verified
 * `deleted` claims (a DELETE whose read-back still found the resource is not among them).
 */
function confirmedEarlier(ledger: Ledger, runId: string): Set<string> {
  const confirmed = new Set<string>();
  for (const listing of ledger.listRuns({ agent: 'fisherman-cleanup' })) {
    const record = ledger.getRun(listing.id);
    if ((record.run.meta as { cleans?: string }).cleans !== runId) continue;
    for (const entry of record.entries)
      if (entry.kind === 'claim' && entry.outcome === 'verified' && typeof entry.data.resource === 'string')
        confirmed.add(entry.data.resource);
  }
  return confirmed;
}

const statusOf = (record: { result?: unknown }) => (record.result as { status?: number } | undefined)?.status;

/**
 * Deletes exactly the resource URLs a run created, children first, through the same
 * origin-locked client and ledger as any request. A deletion is confirmed when the read
 * that found the resource before the DELETE no longer does (404/410, or 403 where the same
 * session got 200 before). Already-gone resources count as cleaned, so cleanup can repeat.
 */
export async function cleanupRun(
  options: Omit<FishContextOptions, 'created' | 'allowDelete'> & { runId: string; ledger: Ledger },
): Promise<CleanupResult> {
  const created = createdBy(options.ledger, options.runId);
  if (created.length === 0) {
    throw new TallyError(
      'NOTHING_TO_CLEAN',
      `Run ${options.runId} created nothing that still existed at its end (no net creates in its ledger). Nothing was deleted.`,
      { runId: options.runId },
    );
  }
  const earlier = confirmedEarlier(options.ledger, options.runId);
  const context = await buildFishContext({ ...options, created: created.map((item) => item.path) });
  const agent = defineAgent({
    name: 'fisherman-cleanup',
    instructions: 'Delete what a run created with request; confirm with lookup.',
    tools: [requestTool(context), lookupTool(context)],
    claimEffect: 'deleted',
  });
  const deletions: Deletion[] = [];
  const result = await options.ledger.withKnownSecrets(context.knownSecrets, () =>
    runPlan(
      agent,
      `cleanup ${options.runId}`,
      async (call) => {
        for (const item of [...created].reverse()) {
          const before = statusOf(await call('lookup', { path: item.path }));
          const base = { ...item, ...(before !== undefined ? { beforeStatus: before } : {}) };
          if ((before !== undefined && GONE.has(before)) || (before === 403 && earlier.has(item.path))) {
            deletions.push({ ...base, outcome: 'already-gone', ok: true });
            continue;
          }
          const removal = await call('request', { method: 'DELETE', path: item.path });
          const status = statusOf(removal);
          if (status !== undefined && GONE.has(status)) {
            deletions.push({ ...base, status, outcome: 'already-gone', ok: true });
            continue;
          }
          if (removal.outcome !== 'ok') {
            const message =
              (removal.result as { message?: string } | undefined)?.message ?? removal.error?.message;
            deletions.push({
              ...base,
              ...(status !== undefined ? { status } : {}),
              outcome: 'failed',
              ok: false,
              ...(message ? { why: message } : {}),
            });
            continue;
          }
          const after = statusOf(await call('lookup', { path: item.path }));
          const confirmed = after !== undefined && (GONE.has(after) || (after === 403 && before === 200));
          deletions.push({
            ...base,
            ...(status !== undefined ? { status } : {}),
            ...(after !== undefined ? { confirmStatus: after } : {}),
            outcome: confirmed ? 'deleted' : 'not-confirmed',
            ok: confirmed,
            ...(confirmed ? {} : { why: `a read after the DELETE still answered ${after ?? 'nothing'}` }),
          });
        }
        const count = (outcome: DeletionOutcome) =>
          deletions.filter((deletion) => deletion.outcome === outcome);
        const deleted = count('deleted');
        const gone = count('already-gone');
        const notOk = deletions.filter((deletion) => !deletion.ok);
        const summary = `Cleaned ${deletions.length - notOk.length} of ${deletions.length} resources created by ${options.runId}: ${deleted.length} deleted and confirmed, ${gone.length} already gone${notOk.length ? `, ${notOk.length} not confirmed (${notOk.map((deletion) => `${deletion.path}: ${deletion.why ?? deletion.outcome}`).join('; ')})` : ''}.`;
        if (deleted.length === 0 && notOk.length === 0) return { nothingToDo: summary };
        return {
          finish: {
            summary,
            claims: deleted.map((deletion) => ({ target: deletion.path, effect: 'deleted' as const })),
            failed: notOk.map((deletion) => ({
              target: deletion.path,
              reason: deletion.why ?? deletion.outcome,
            })),
          },
        };
      },
      { ledger: options.ledger, meta: { cleans: options.runId, baseUrl: context.baseUrl } },
    ),
  );
  return { ...result, cleanedRunId: options.runId, deletions };
}
