import type { Ledger } from '../../core/ledger/ledger.js';

/**
 * Security: where a value the session learns mid-run goes (a rotated session cookie, a
 * refreshed CSRF token) — into the context's known secrets, for runs started later, and the
 * ledger's, which runs already under way follow — before the response that carried it is
 * handed to anything that records it.
 */
export function sessionSecretsLearner(
  knownSecrets: string[],
  ledger: Pick<Ledger, 'knowSecrets'> | undefined,
): (values: string[]) => void {
  return (values) => {
    knownSecrets.push(...values);
    ledger?.knowSecrets(values);
  };
}
