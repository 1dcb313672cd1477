import { z } from 'zod';
import { type Agent, defineAgent } from '../../core/agent/agent-definition.js';
import type { ClaimVerifier } from '../../core/agent/claims.js';
import type { FinishSpec } from '../../core/agent/finish-spec.js';
import { type RecordsToolContext, recordsTools } from '../../packs/records/tools/records-tools.js';

const scoutFinishInput = z.object({
  summary: z.string(),
  governs: z.array(z.object({ path: z.string(), label: z.string() })),
  commands: z.array(z.string()),
});

export type ScoutFinish = z.infer<typeof scoutFinishInput>;

const scoutFinish: FinishSpec<ScoutFinish> = {
  description:
    'Report the records that govern the goal (each read with records_cat in this run) and the commands they state verbatim.',
  inputSchema: scoutFinishInput,
  toClaims: (input) => [
    ...input.governs.map((item) => ({ target: item.path, type: 'governs', label: item.label })),
    ...input.commands.map((command) => ({ target: command, type: 'command' })),
  ],
  summaryOf: (input) => input.summary,
};

interface CatFile {
  path: string;
  commands: string[];
}

/** GOVERNS paths must have been read by records_cat in this run; COMMANDS must appear verbatim in what was read. */
export const scoutVerifier: ClaimVerifier = (claims, view) => {
  const reads = view.calls.filter((call) => call.tool === 'records_cat');
  return claims.map((claim) => {
    if (claim.type === 'command') {
      const read = reads.find((call) =>
        (call.evidence.files as CatFile[] | undefined)?.some((file) => file.commands.includes(claim.target)),
      );
      if (!read)
        return {
          claim,
          verified: false as const,
          why: 'no record read in this run states this command verbatim',
        };
      const file = (read.evidence.files as CatFile[]).find((candidate) =>
        candidate.commands.includes(claim.target),
      ) as CatFile;
      return {
        claim,
        verified: true as const,
        item: {
          target: claim.target,
          type: 'command',
          via: `records_cat ${file.path}`,
          evidenceSeq: read.seq,
        },
      };
    }
    const read = reads.find((call) => call.evidence.targets?.includes(claim.target));
    if (!read)
      return {
        claim,
        verified: false as const,
        why: 'this record was not read with records_cat in this run',
      };
    return {
      claim,
      verified: true as const,
      item: {
        target: claim.target,
        type: 'governs',
        label: claim.label,
        via: `records_cat ${claim.target}`,
        evidenceSeq: read.seq,
      },
    };
  });
};

export function createScoutAgent(context: RecordsToolContext): Agent {
  return defineAgent({
    name: 'scout',
    instructions:
      'Find the records that govern the goal: records_recall first, then records_query for the gaps, then ONE records_cat batch. Finish with the governing paths and their commands verbatim.',
    tools: recordsTools(context),
    finish: scoutFinish,
    verifier: scoutVerifier,
  });
}
