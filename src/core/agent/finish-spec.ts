import { z } from 'zod';
import { builtOnce } from '../built-once.js';
import type { Claim } from './claims.js';
import type { ReportedFailure } from './ending.js';

export const FINISH_TOOL = 'finish';
export const STOP_TOOL = 'stop';

/** How an agent's `finish` input looks and how it turns into claims. */
// biome-ignore lint/suspicious/noExplicitAny: each agent brings its own finish input type
export interface FinishSpec<Input = any> {
  description: string;
  inputSchema: z.ZodType<Input>;
  toClaims: (input: Input) => Claim[];
  summaryOf: (input: Input) => string;
  /** What the agent reports as not done; part of the result. */
  failedOf?: (input: Input) => ReportedFailure[];
}

// The default finish input and `stop`'s are built on first use: agents with a finish of their own
// and runs without a model never read them (issue 22: ~4 ms of every start).
const defaultFinishInput = builtOnce(buildDefaultFinishInput);

function buildDefaultFinishInput() {
  return z.object({
    summary: z.string().describe('One or two sentences for the user: what was done.'),
    claims: z
      .array(
        z.object({
          target: z.string().describe('What the claim is about: an id or a path.'),
          effect: z
            .enum(['created', 'updated', 'deleted', 'read', 'changed'])
            .optional()
            .describe('What you did to it; `changed` when unsure between created and updated.'),
          type: z.string().optional(),
          title: z.string().optional(),
          contains: z.string().optional().describe('Text the resource contains now.'),
          sha256: z.string().optional(),
        }),
      )
      .describe('Each thing you did. Only claims backed by tool evidence from this run are reported.'),
    failed: z
      .array(z.object({ target: z.string().optional(), reason: z.string() }))
      .default([])
      .describe('What you could not do, and why.'),
  });
}

export const defaultFinishSpec: FinishSpec<z.infer<ReturnType<typeof buildDefaultFinishInput>>> = {
  description:
    'Call when the task is done. List every thing you did as a claim; claims are checked against the evidence of this run, and unbacked ones are dropped.',
  get inputSchema() {
    return defaultFinishInput();
  },
  toClaims: (input) => input.claims,
  summaryOf: (input) => input.summary,
  failedOf: (input) => input.failed,
};

function buildStopInput() {
  return z.object({
    reason: z.string().min(1).describe('Why the task cannot be done, honestly and specifically.'),
  });
}

/** The input of the `stop` tool every model run has. */
export const stopInput = builtOnce(buildStopInput);
