import { z } from 'zod';
import type { FinishSpec } from '../../core/agent/finish-spec.js';
import { builtOnce } from '../../core/built-once.js';

function buildFishermanFinishInput() {
  return z.object({
    summary: z.string().describe('One or two sentences: what was created.'),
    created: z
      .array(
        z.object({
          type: z.string().describe('The requested type, e.g. suite, test, milestone.'),
          id: z.union([z.string(), z.number()]).describe('The id the create response returned.'),
          title: z.string().optional(),
        }),
      )
      .describe('Every entity you created. Each id must come from a successful create response in this run.'),
    failed: z
      .array(z.object({ type: z.string(), reason: z.string() }))
      .default([])
      .describe('What you could not create, and why.'),
  });
}

// Built on first use: only the model's `finish` tool checks against it; the deterministic tier
// finishes on its own results (issue 22).
const fishermanFinishInput = builtOnce(buildFishermanFinishInput);

export type FishermanFinish = z.infer<ReturnType<typeof buildFishermanFinishInput>>;

export const fishermanFinish: FinishSpec<FishermanFinish> = {
  description:
    "Call when the requested data exists. List every created entity with the id from its create response. Claims are checked against this run's requests: unbacked ones are dropped.",
  get inputSchema() {
    return fishermanFinishInput();
  },
  toClaims: (input) =>
    input.created.map((item) => ({
      target: String(item.id),
      effect: 'created' as const,
      type: item.type,
      ...(item.title ? { title: item.title } : {}),
    })),
  summaryOf: (input) => input.summary,
  failedOf: (input) => input.failed.map((item) => ({ type: item.type, reason: item.reason })),
};
