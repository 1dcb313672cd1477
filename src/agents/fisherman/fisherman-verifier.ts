import { type EvidenceView, itemFromNet, verifyAgainstEffects } from '../../core/agent/claims.js';
import type { VerifiedItem } from '../../core/agent/ending.js';
import { changedUnderAnotherPath, createdResources } from '../../core/effects.js';
import { sameType } from '../../core/type-words.js';

/**
 * A claimed item is verified only by this run's net `created` effect on that resource — the
 * collection plus the id its create returned (`article 1` and `comment 1` are different) —
 * still existing at the end of the run, with a type that agrees with the collection. Reads,
 * updates, actions and deletes never count; duplicates count once.
 */
export const fishermanVerifier = verifyAgainstEffects({ defaultEffect: 'created' });

/**
 * When the model claims nothing verifiable, the items are this run's net creates — of the
 * requested types when the request's structure is known — never updates, moves or actions, nor
 * a create the run later changed under another spelling of its path (what it holds now is unknown).
 */
export function itemsFromCreates(types: string[] | undefined) {
  return (view: EvidenceView): VerifiedItem[] =>
    createdResources(view.net)
      .filter((net) => net.space === 'http')
      .filter((net) => changedUnderAnotherPath(net, view.net).length === 0)
      .filter((net) => !types || types.some((type) => net.type && sameType(type, net.type)))
      .map((net) => itemFromNet(net));
}
