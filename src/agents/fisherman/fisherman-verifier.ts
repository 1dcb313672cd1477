import type { ClaimVerifier, EvidenceCall, EvidenceView } from '../../core/agent/claims.js';
import type { VerifiedItem } from '../../core/agent/ending.js';
import { sameResource, singular } from '../../packs/http/endpoints/resource-name.js';

const CREATING = new Set(['POST', 'PUT']);

function isSuccessfulWrite(call: EvidenceCall): boolean {
  const method = String(call.evidence.method ?? '');
  const status = Number(call.evidence.status ?? 0);
  return call.tool === 'request' && CREATING.has(method) && status >= 200 && status < 300;
}

function titleOf(call: EvidenceCall): string | undefined {
  const body = (call.input as { body?: Record<string, unknown> } | undefined)?.body;
  const title = body?.title ?? body?.name;
  return typeof title === 'string' ? title : undefined;
}

function itemFrom(call: EvidenceCall, id: string, type?: string): VerifiedItem {
  const title = titleOf(call);
  return {
    target: id,
    type: type ?? singular(String(call.evidence.resource ?? 'item')),
    ...(title ? { title } : {}),
    via: `${String(call.evidence.method)} ${String(call.evidence.path).split('?')[0]}`,
    status: call.evidence.status,
    evidenceSeq: call.seq,
  };
}

/**
 * A claimed item is verified only by a successful create request of THIS run whose own
 * response returned that id, and only when the claimed type agrees with the resource of the
 * endpoint that created it. Ids merely read (lookups, lists) never count.
 */
export const fishermanVerifier: ClaimVerifier = (claims, view) =>
  claims.map((claim) => {
    const writer = [...view.calls]
      .reverse()
      .find(
        (call) =>
          isSuccessfulWrite(call) && (call.evidence.ids as string[] | undefined)?.includes(claim.target),
      );
    if (!writer) {
      const idPattern = new RegExp(
        `"(id|_id|uuid)":"?${claim.target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?[,}]`,
      );
      const readOnly = view.calls.some(
        (call) => call.evidence.method === 'GET' && idPattern.test(JSON.stringify(call.result ?? '')),
      );
      return {
        claim,
        verified: false as const,
        why: readOnly
          ? `id ${claim.target} was only read in this run, never returned by a successful create`
          : `no successful create request in this run returned id ${claim.target}`,
      };
    }
    const resource = String(writer.evidence.resource ?? '');
    if (claim.type && resource && !sameResource(claim.type, resource)) {
      return {
        claim,
        verified: false as const,
        why: `substitution: a ${claim.type} was claimed, but id ${claim.target} came from ${String(writer.evidence.method)} ${String(writer.evidence.path)}, which creates ${resource}`,
      };
    }
    return {
      claim,
      verified: true as const,
      item: itemFrom(writer, claim.target, claim.type ? singular(claim.type) : undefined),
    };
  });

/** When the model claims nothing verifiable but creates succeeded, the items are those creates. */
export function itemsFromWrites(view: EvidenceView): VerifiedItem[] {
  return view.calls
    .filter(isSuccessfulWrite)
    .flatMap((call) => ((call.evidence.ids as string[] | undefined) ?? []).map((id) => itemFrom(call, id)));
}
