import { errorMessage } from '../errors.js';
import type { FailOpen } from '../fail-open.js';
import type { RunRecorder } from '../ledger/ledger.js';
import type { Agent } from './agent-definition.js';
import { type ClaimVerdict, evidenceView } from './claims.js';
import type { DroppedClaim, VerifiedItem } from './ending.js';

export interface FinishVerdict {
  verified: VerifiedItem[];
  dropped: DroppedClaim[];
}

export function readOnlyToolsOf(agent: Agent): Set<string> {
  return new Set(agent.tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name));
}

/**
 * Checks a finish input against this run's ledger and records a `claim` entry per verdict.
 * When nothing the model claimed is verifiable, the agent may take items from the ledger
 * (e.g. the writes that did succeed). Used by the model loop and by deterministic plans alike.
 */
export function verifyFinish(
  agent: Agent,
  recorder: RunRecorder,
  failOpen: FailOpen,
  input: unknown,
): FinishVerdict {
  const readOnly = readOnlyToolsOf(agent);
  const claims = agent.finish.toClaims(input);
  let verdicts: ClaimVerdict[];
  try {
    verdicts = agent.verifier(claims, evidenceView(recorder.runId, recorder.entries(), readOnly));
  } catch (error) {
    // Failing open here means failing closed on the claims: nothing unverified is reported.
    failOpen('verifier', 'verifier-threw', recorder.runId);
    verdicts = claims.map((claim) => ({
      claim,
      verified: false as const,
      why: `the verifier failed: ${errorMessage(error)}`,
    }));
  }
  let verified = verdicts.flatMap((verdict) => (verdict.verified ? [verdict.item] : []));
  const dropped = verdicts.flatMap((verdict) =>
    verdict.verified ? [] : [{ claim: verdict.claim, why: verdict.why }],
  );
  for (const verdict of verdicts) {
    recorder.append({
      kind: 'claim',
      outcome: verdict.verified ? 'verified' : 'dropped',
      data: verdict.verified
        ? { claim: verdict.claim, via: verdict.item.via, evidenceSeq: verdict.item.evidenceSeq }
        : { claim: verdict.claim, why: verdict.why },
    });
  }
  if (verified.length === 0 && agent.itemsFromLedger) {
    verified = agent.itemsFromLedger(evidenceView(recorder.runId, recorder.entries(), readOnly));
    for (const item of verified) {
      recorder.append({
        kind: 'claim',
        outcome: 'verified',
        data: {
          claim: { target: item.target, type: item.type },
          via: item.via,
          evidenceSeq: item.evidenceSeq,
          source: 'ledger',
        },
      });
    }
  }
  return { verified, dropped };
}
