import { fishermanVerifier } from '../../agents/fisherman/fisherman-verifier.js';
import { scoutVerifier } from '../../agents/scout/scout-agent.js';
import type { ClaimResolver, ClaimVerifier } from '../../core/agent/claims.js';

/** Claims re-checked from the ledger: the key the run resolved a claim to is taken as it is. */
const ledgerKeys = (space: string): ClaimResolver => ({ space, canonical: (spelling) => spelling.trim() });

/**
 * Each agent's claim verifier, rebuilt without the live resources it ran with (a project root,
 * an API session): the same matching rules over the recorded net effects. Agents not listed
 * use the default effect verifier (`verifyAgainstEffects`).
 */
export function verifierFor(agent: string): ClaimVerifier | undefined {
  if (agent === 'fisherman') return fishermanVerifier;
  if (agent === 'scout') return scoutVerifier(ledgerKeys('record'));
  return undefined;
}
