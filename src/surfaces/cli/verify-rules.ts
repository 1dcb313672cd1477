import type { ClaimResolver, ClaimVerifier } from '../../core/agent/claims.js';

/** Claims re-checked from the ledger: the key the run resolved a claim to is taken as it is. */
const ledgerKeys = (space: string): ClaimResolver => ({ space, canonical: (spelling) => spelling.trim() });

/**
 * Each agent's claim verifier, rebuilt without the live resources it ran with (a project root,
 * an API session): the same matching rules over the recorded net effects. Agents not listed
 * use the default effect verifier (`verifyAgainstEffects`). Loaded only for the agent asked about.
 */
export async function verifierFor(agent: string): Promise<ClaimVerifier | undefined> {
  if (agent === 'fisherman')
    return (await import('../../agents/fisherman/fisherman-verifier.js')).fishermanVerifier;
  if (agent === 'coder')
    return (await import('../../agents/coder/coder-verifier.js')).coderVerifier([ledgerKeys('file')]);
  if (agent === 'scout')
    return (await import('../../agents/scout/scout-agent.js')).scoutVerifier(ledgerKeys('record'));
  return undefined;
}
