import {
  type ClaimResolver,
  type ClaimVerdict,
  type ClaimVerifier,
  type EvidenceView,
  itemFromNet,
  verifyAgainstEffects,
} from '../../core/agent/claims.js';
import type { VerifiedItem } from '../../core/agent/ending.js';
import { type NetEffect, resourceId } from '../../core/effects.js';
import { contentChanges, fileHistoriesOf } from './changes-report.js';
import { rowsAbout } from './flag-false-statements.js';

/**
 * The Coder's claim verifier: the core's effect verifier, then the changes report's rule by
 * content. A file claimed as created, updated, changed or deleted must have a row in the
 * turn's changes report (`contentChanges`, the table the user is shown): an edit undone, or
 * a rewrite with the same bytes, is by effect kinds an update but by content no change, and
 * the verdict may not say otherwise than the table.
 */
export function coderVerifier(resolvers: ClaimResolver[]): ClaimVerifier {
  const byEffects = verifyAgainstEffects({ resolvers });
  return async (claims, view) => {
    const verdicts = await byEffects(claims, view);
    const histories = fileHistoriesOf(view.calls);
    const changes = contentChanges(histories);
    return verdicts.map((verdict): ClaimVerdict => {
      if (!verdict.verified) return verdict;
      const { item } = verdict;
      // itemFromNet's facts: the resource's space and canonical key.
      const path = item.resource;
      if (item.space !== 'file' || item.effect === 'read' || typeof path !== 'string') return verdict;
      if (rowsAbout(changes, path).length > 0) return verdict;
      const history = histories.get(path);
      const hash = history?.last.exists ? history.last.sha256?.slice(0, 12) : undefined;
      return {
        claim: verdict.claim,
        verified: false,
        why: `${path} holds the same content at the end of this turn as before it${hash ? ` (sha256 ${hash})` : ''}: by content this turn did not change it; claim only files whose content changed`,
      };
    });
  };
}

/**
 * The files a turn changed by content (its changes report), as items backed by the ledger:
 * what an interrupted turn, or one out of rounds, made before it ended.
 */
export function changedFileItems(view: EvidenceView): VerifiedItem[] {
  return contentChanges(fileHistoriesOf(view.calls))
    .map((row) => view.net.get(resourceId('file', row.path)))
    .filter((net): net is NetEffect => net?.change !== undefined)
    .map((net) => itemFromNet(net));
}
