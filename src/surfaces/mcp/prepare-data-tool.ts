import { z } from 'zod';
import type { FishContextOptions } from '../../agents/fisherman/fish-context.js';
import { prepareData } from '../../agents/fisherman/prepare-data.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { defineTool } from '../../core/tool.js';

/** Fisherman in one call, for an outside agent: its own recorded run, verified items back. */
export function prepareDataTool(ledger: Ledger, fish: FishContextOptions & { loginName?: string }) {
  return defineTool({
    name: 'prepare_data',
    description:
      'Create test data through the app\'s own API in one call, e.g. "2 suites with 3 tests each". Returns only items verified against real create responses (type, id, via), dropped claims, the ending reason and the run id.',
    inputSchema: z.object({
      request: z.string().min(1),
      scope: z.string().optional().describe('The page the test starts on, e.g. /projects/alpha-shop'),
    }),
    annotations: { destructive: true, openWorld: true },
    target: (input) => `prepare_data ${input.scope ?? fish.scope ?? '/'}`,
    execute: async (input) => {
      const result = await prepareData({
        ...fish,
        request: input.request,
        ...(input.scope ? { scope: input.scope } : {}),
        ledger,
      });
      return {
        result: {
          ok: result.status === 'success',
          status: result.status,
          endingReason: result.endingReason,
          summary: result.summary,
          verified: result.verified.map((item) => ({
            type: item.type,
            id: item.target,
            title: item.title,
            via: item.via,
          })),
          dropped: result.dropped,
          failed: result.failed,
          unmet: result.unmet,
          runId: result.runId,
        },
        evidence: {
          via: `prepare_data run ${result.runId}`,
          // What the inner run verified it created, so this session's ledger holds the same effects.
          effects: result.verified
            .filter((item) => item.space === 'http' && item.effect === 'created')
            .map((item) => ({
              kind: 'created' as const,
              space: 'http',
              key: String(item.resource),
              id: item.target,
              ...(item.type ? { type: item.type } : {}),
              ...(item.title ? { observed: { title: item.title } } : {}),
            })),
        },
      };
    },
  });
}
