import type { LedgerEntry } from '../ledger/entry.js';
import type { Evidence } from '../tool.js';
import type { VerifiedItem } from './ending.js';

/** Something the model says it did. Agents shape their own; `target` is what it is about. */
export interface Claim {
  target: string;
  type?: string;
  title?: string;
  [key: string]: unknown;
}

export type ClaimVerdict =
  | { claim: Claim; verified: true; item: VerifiedItem }
  | { claim: Claim; verified: false; why: string };

/** A successful tool call of this run, as read back from the ledger. */
export interface EvidenceCall {
  seq: number;
  tool: string;
  target: string;
  input: unknown;
  result: unknown;
  evidence: Evidence;
  readOnly: boolean;
}

export interface EvidenceView {
  runId: string;
  /** Successful tool calls of THIS run, oldest first. */
  calls: EvidenceCall[];
}

/** Maps each claim to ledger evidence from this run. Must not trust anything the model wrote. */
export type ClaimVerifier = (claims: Claim[], view: EvidenceView) => ClaimVerdict[];

export function evidenceView(
  runId: string,
  entries: LedgerEntry[],
  readOnlyTools: Set<string>,
): EvidenceView {
  const calls: EvidenceCall[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'tool_call' || entry.outcome !== 'ok') continue;
    const data = entry.data;
    const tool = String(data.tool);
    calls.push({
      seq: entry.seq,
      tool,
      target: String(data.target),
      input: data.input,
      result: data.result,
      evidence: (data.evidence as Evidence | undefined) ?? {},
      readOnly: readOnlyTools.has(tool),
    });
  }
  return { runId, calls };
}

/**
 * The default verifier: a claim is verified when a successful call of this run lists the
 * claim's target among its evidence targets. The newest such call is cited.
 */
export const verifyByEvidenceTargets: ClaimVerifier = (claims, view) =>
  claims.map((claim) => {
    for (let index = view.calls.length - 1; index >= 0; index--) {
      const call = view.calls[index] as EvidenceCall;
      if (call.evidence.targets?.includes(claim.target)) {
        const { target: _target, ...rest } = claim;
        return {
          claim,
          verified: true as const,
          item: {
            ...rest,
            target: claim.target,
            via: call.evidence.via ?? `${call.tool} ${call.target}`,
            evidenceSeq: call.seq,
          },
        };
      }
    }
    return {
      claim,
      verified: false as const,
      why: `no successful call in this run produced evidence for "${claim.target}"`,
    };
  });
