import { errorMessage } from '../errors.js';
import type { FailOpen } from '../fail-open.js';
import type { RunRecorder } from '../ledger/ledger.js';
import type { Agent } from './agent-definition.js';
import { type ClaimVerdict, evidenceView } from './claims.js';
import { statedContents, withStatedContent } from './content-words.js';
import type { DroppedClaim, VerifiedItem } from './ending.js';

export interface FinishVerdict {
  verified: VerifiedItem[];
  dropped: DroppedClaim[];
  duplicates: DroppedClaim[];
  /** What the finish states that no verified claim checks (content named only in the summary). */
  problems: string[];
}

export function readOnlyToolsOf(agent: Agent): Set<string> {
  return new Set(agent.tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name));
}

/**
 * Checks a finish input against this run's ledger and records a `claim` entry per verdict.
 * When nothing the model claimed is verifiable, the agent may take items from the ledger's
 * net effects (e.g. the creates that did succeed). Used by the model loop and plans alike.
 */
export async function verifyFinish(
  agent: Agent,
  recorder: RunRecorder,
  failOpen: FailOpen,
  input: unknown,
): Promise<FinishVerdict> {
  // Held to the evidence as the ledger stores it, redacted: a claim that names a secret the
  // evidence holds scrubbed (`psql postgres://u:[redacted]@…`) is compared in that form, as
  // `tally verify` compares the stored claim, and no secret reaches a verdict or its output.
  const claims = agent.finish
    .toClaims(input)
    .map(withStatedContent)
    .map((claim) => recorder.redactor.redact(claim));
  const view = evidenceView(recorder.runId, recorder.entries(), readOnlyToolsOf(agent));
  let verdicts: ClaimVerdict[];
  try {
    verdicts = await agent.verifier(claims, view);
  } catch (error) {
    // Failing open here means failing closed on the claims: nothing unverified is reported.
    failOpen('verifier', 'verifier-threw', recorder.runId);
    verdicts = claims.map((claim) => ({
      claim,
      verified: false as const,
      why: `the verifier failed: ${errorMessage(error)}`,
    }));
  }
  let verified: VerifiedItem[] = [];
  const dropped: DroppedClaim[] = [];
  const duplicates: DroppedClaim[] = [];
  for (const verdict of verdicts) {
    if (verdict.verified) verified.push(verdict.item);
    else (verdict.duplicate ? duplicates : dropped).push({ claim: verdict.claim, why: verdict.why });
    recorder.append({
      kind: 'claim',
      outcome: verdict.verified ? 'verified' : verdict.duplicate ? 'duplicate' : 'dropped',
      data: verdict.verified
        ? {
            claim: verdict.claim,
            via: verdict.item.via,
            evidenceSeq: verdict.item.evidenceSeq,
            resource: verdict.item.resource,
          }
        : {
            claim: verdict.claim,
            why: verdict.why,
            // A duplicate keeps the key its twin resolved to: `tally verify` re-checks it by that.
            ...(verdict.duplicate && verdict.resource !== undefined ? { resource: verdict.resource } : {}),
          },
    });
  }
  if (verified.length === 0 && agent.itemsFromLedger) {
    verified = agent.itemsFromLedger(view);
    for (const item of verified) {
      recorder.append({
        kind: 'claim',
        outcome: 'verified',
        data: {
          claim: { target: item.target, type: item.type },
          via: item.via,
          evidenceSeq: item.evidenceSeq,
          resource: item.resource,
          source: 'ledger',
        },
      });
    }
  }
  return {
    verified,
    dropped,
    duplicates,
    problems: unbackedContent(recorder.redactor.redactText(agent.finish.summaryOf(input)), verdicts),
  };
}

/** Content the summary names in words that no verified claim's `contains` checked: refused, never ignored. */
export function unbackedContent(summary: string, verdicts: readonly ClaimVerdict[]): string[] {
  const checked = verdicts
    .filter((verdict) => verdict.verified && verdict.claim.contains !== undefined)
    .map((verdict) => String(verdict.claim.contains));
  return statedContents(summary)
    .filter((content) => !checked.some((text) => text.includes(content)))
    .map(
      (content) =>
        `the summary states content that no claim checks ("${content.slice(0, 80)}"): claim it with contains, or leave it out`,
    );
}
