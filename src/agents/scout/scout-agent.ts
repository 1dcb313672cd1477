import { z } from 'zod';
import { type Agent, type AgentOptions, defineAgent } from '../../core/agent/agent-definition.js';
import {
  type ClaimResolver,
  type ClaimVerdict,
  type ClaimVerifier,
  verifyAgainstEffects,
} from '../../core/agent/claims.js';
import type { FinishSpec } from '../../core/agent/finish-spec.js';
import type { GateRule } from '../../core/agent/gate-keeper.js';
import type { ToolDefinition } from '../../core/tool.js';
import {
  type RecordsToolContext,
  recordClaimResolver,
  recordsTools,
} from '../../packs/records/tools/records-tools.js';
import { confirmLabel, type FoundBy } from './confirm-labels.js';

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

/**
 * GOVERNS paths must have a `read` effect (records_cat) in this run — spelled any way a
 * query accepts; COMMANDS must appear verbatim in a record read in this run. Recall hits and
 * query results are not reads. With `found` (what this run's searches returned, seen by the
 * system), a GOVERNS label is held to it too (see confirmLabel).
 */
export function scoutVerifier(resolver: ClaimResolver, found?: FoundBy): ClaimVerifier {
  const reads = verifyAgainstEffects({ defaultEffect: 'read', resolvers: [resolver] });
  return async (claims, view) => {
    const records = [...view.net.values()].filter((net) => net.space === resolver.space && net.read);
    const governs = claims.filter((claim) => claim.type !== 'command');
    const readVerdicts = await reads(
      governs.map((claim) => ({ target: claim.target, effect: 'read' as const })),
      view,
    );
    // A command claimed twice is one item, as a record is (its text is its identity).
    const commands = new Set<string>();
    return claims.map((claim): ClaimVerdict => {
      if (claim.type === 'command') {
        if (commands.has(claim.target))
          return {
            claim,
            verified: false,
            duplicate: true,
            resource: claim.target,
            why: 'duplicate: this command was already claimed; counted once',
          };
        const record = records.find((net) =>
          (net.observed.commands as string[] | undefined)?.includes(claim.target),
        );
        if (!record) {
          const warning = records.find((net) =>
            (net.observed.warned as string[] | undefined)?.includes(claim.target),
          );
          return {
            claim,
            verified: false,
            why: warning
              ? `${warning.key} states this command only as one not to run`
              : 'no record read in this run states this command verbatim',
          };
        }
        const read = [...record.history].reverse().find((step) => step.kind === 'read');
        commands.add(claim.target);
        return {
          claim,
          verified: true,
          item: {
            target: claim.target,
            type: 'command',
            via: `records_cat ${record.key}`,
            evidenceSeq: read?.seq ?? 0,
          },
        };
      }
      const verdict = readVerdicts[governs.indexOf(claim)] as ClaimVerdict;
      if (!verdict.verified) {
        const why = verdict.why.replace(
          /^this run has no effect on/,
          'this record was not read with records_cat in this run:',
        );
        return {
          claim,
          verified: false,
          why,
          ...(verdict.duplicate ? { duplicate: true } : {}),
          ...(verdict.resource !== undefined ? { resource: verdict.resource } : {}),
        };
      }
      const item = {
        ...verdict.item,
        target: String(verdict.item.resource),
        type: 'governs',
        label: claim.label,
        via: `records_cat ${String(verdict.item.resource)}`,
      };
      return { claim, verified: true, item: found ? confirmLabel(item, found) : item };
    });
  };
}

/** Overrides for the model tier: budgeted tools, the recall-first gate, a round cap. */
export interface ScoutAgentOverrides {
  tools?: ToolDefinition[];
  instructions?: string;
  gates?: GateRule[];
  guards?: AgentOptions['guards'];
  /** What this run's searches returned: GOVERNS labels are held to it. */
  found?: FoundBy;
}

export function createScoutAgent(context: RecordsToolContext, overrides: ScoutAgentOverrides = {}): Agent {
  return defineAgent({
    name: 'scout',
    instructions:
      overrides.instructions ??
      'Find the records that govern the goal: records_recall first, then records_query for the gaps, then ONE records_cat batch. Finish with the governing paths and their commands verbatim.',
    tools: overrides.tools ?? recordsTools(context),
    finish: scoutFinish,
    // The rule stays the same for every tier: GOVERNS read in this run, COMMANDS verbatim.
    verifier: scoutVerifier(recordClaimResolver(context.root), overrides.found),
    ...(overrides.gates ? { gates: overrides.gates } : {}),
    ...(overrides.guards ? { guards: overrides.guards } : {}),
  });
}
